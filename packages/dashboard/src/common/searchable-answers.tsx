import { Accordion, Text } from '@mantine/core';
import { useState } from 'react';
import { SearchBox } from './paged-search';

export interface Answer {
  question: string;
  answer: string;
}

/** FAQs and Troubleshooting: a search box over question and answer pairs. */
export function SearchableAnswers({ answers, label }: { answers: Answer[]; label: string }) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = answers.filter((pair) => `${pair.question} ${pair.answer}`.toLowerCase().includes(needle));
  return (
    <>
      <SearchBox label={label} value={search} onSearch={setSearch} w="100%" maw={400} />
      {shown.length === 0 ? (
        <Text c="dimmed">Nothing matches your search.</Text>
      ) : (
        <Accordion variant="separated" defaultValue={shown[0] ? String(answers.indexOf(shown[0])) : null}>
          {shown.map((pair) => (
            // The value becomes part of element ids: a position, not the question's text.
            <Accordion.Item key={pair.question} value={String(answers.indexOf(pair))}>
              <Accordion.Control>{pair.question}</Accordion.Control>
              <Accordion.Panel>{pair.answer}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </>
  );
}
