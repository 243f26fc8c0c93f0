import { Combobox, InputBase, Text, useCombobox } from '@mantine/core';

export type PackChoice = { value: string; label: string };

/**
 * A select whose chosen pack wraps onto a second line instead of being cut: a pack's name with
 * its price and credits ("FLEXIBLE CREDITS: $100 (57,142 credits)") is longer than a phone's
 * width allows a one-line input. Mantine's Select is an `<input>`, which cannot wrap; this is
 * Mantine's Combobox on a button, with the same label, role, keyboard and list.
 */
export function PackSelect({
  choices,
  value,
  onChange,
}: {
  choices: PackChoice[];
  value: string | null;
  onChange: (value: string) => void;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const chosen = choices.find((choice) => choice.value === value);
  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(choice) => {
        onChange(choice);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target targetType="button" withExpandedAttribute>
        <InputBase
          component="button"
          type="button"
          label="Pack to buy"
          pointer
          multiline
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onClick={() => combobox.toggleDropdown()}
        >
          {chosen?.label ?? (
            // Not Input.Placeholder: its grey (gray.5 on white) is below AA contrast as text.
            <Text component="span" c="dimmed" inherit>
              Choose a pack
            </Text>
          )}
        </InputBase>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          {choices.map((choice) => (
            <Combobox.Option
              value={choice.value}
              key={choice.value}
              active={choice.value === value}
              aria-selected={choice.value === value}
            >
              {choice.label}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
