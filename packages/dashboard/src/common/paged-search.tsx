import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/** A paged list's search: what is typed, the same once typing pauses, and the page (back to 1 on a new search). */
export function usePagedSearch() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const onSearch = (value: string) => {
    setSearch(value);
    setPage(1);
  };
  return { search, debounced, page, setPage, onSearch };
}

/** The search field above a list: 260 pixels wide unless told otherwise. */
export function SearchBox({
  label,
  value,
  onSearch,
  w = 260,
  maw,
}: {
  label: string;
  value: string;
  onSearch(value: string): void;
} & Pick<TextInputProps, 'w' | 'maw'>) {
  return (
    <TextInput
      label={label}
      type="search"
      value={value}
      onChange={(event) => onSearch(event.currentTarget.value)}
      w={w}
      maw={maw}
    />
  );
}
