import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { StepChooseFile } from '../../common/step-choose-file';
import type { WizardFile } from '../../common/wizard-state';
import { renderScreen } from '../../test/render';
import { ExistingMapping } from './existing-mapping';
import { EXISTING_NOTE } from './upload-existing-page';

const chosen: WizardFile = {
  file: new File(['Phone,Line Type,DNC\n2012345678,mobile,unchecked\n'], 'result.csv'),
  preview: {
    headers: ['Phone', 'Line Type', 'DNC'],
    rows: [['2012345678', 'mobile', 'unchecked']],
    phoneColumn: 0,
  },
  headerRow: true,
};

test('the DNC column is left unmapped with a Do Not Map option a keyboard reaches, not a hidden clear button', async () => {
  const onDone = vi.fn();
  renderScreen(<ExistingMapping chosen={chosen} initial={null} onBack={() => undefined} onDone={onDone} />);
  const dnc = screen
    .getAllByLabelText('Do-not-call column')
    .find((element) => element.tagName === 'INPUT') as HTMLInputElement;
  expect(dnc.value).toBe('DNC');
  // Nothing next to it that a keyboard cannot reach.
  expect(
    dnc.closest('.mantine-Select-root')?.querySelector('[aria-hidden="true"][tabindex="-1"]'),
  ).toBeNull();
  fireEvent.click(dnc);
  fireEvent.click(await screen.findByRole('option', { name: 'Do Not Map' }));
  await waitFor(() => expect(dnc.value).toBe('Do Not Map'));
  fireEvent.click(screen.getByRole('button', { name: 'Process' }));
  expect(onDone).toHaveBeenCalledWith({ phone: '0', lineType: '1', dnc: '' });
});

test("step 1's note says what step 2 says: a header row always, nothing charged", () => {
  renderScreen(<StepChooseFile note={EXISTING_NOTE} initial={null} onReady={() => undefined} />);
  const note = screen.getByTestId('file-note').textContent ?? '';
  expect(note).toMatch(/All uploads require a header row/);
  expect(note).toMatch(/nothing is charged/i);
  expect(note).not.toMatch(/credit|answer No/);
});
