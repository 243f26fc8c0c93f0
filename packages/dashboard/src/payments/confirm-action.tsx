import { Alert, Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../api/error-message';

/** The seeds close a modal 500 ms after a plan action went through. */
export const MODAL_CLOSE_DELAY_MS = 500;

interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** Runs on Confirm, inside the modal: its failure is shown there, and the modal stays. */
  action: () => Promise<unknown>;
}

function ConfirmBody({ options, onDone }: { options: ConfirmOptions; onDone: (ok: boolean) => void }) {
  const [state, setState] = useState<{ busy: boolean; done: boolean; error: string | null }>({
    busy: false,
    done: false,
    error: null,
  });
  const confirm = async () => {
    setState({ busy: true, done: false, error: null });
    try {
      await options.action();
      setState({ busy: false, done: true, error: null });
      setTimeout(() => onDone(true), MODAL_CLOSE_DELAY_MS);
    } catch (error) {
      setState({ busy: false, done: false, error: errorMessage(error) });
    }
  };
  return (
    <>
      <Text>{options.message}</Text>
      {state.error && (
        <Alert color="red" mt="md" role="alert" title="Error">
          {state.error}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => onDone(false)} disabled={state.busy}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={state.busy} disabled={state.done}>
          {options.confirmLabel ?? 'Confirm'}
        </Button>
      </Group>
    </>
  );
}

/** A confirmation modal whose Confirm runs the action; resolves true once it succeeded. */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      modals.close(id);
      resolve(ok);
    };
    const id = modals.open({
      title: options.title,
      closeButtonProps: { 'aria-label': 'Close dialog' },
      onClose: () => finish(false),
      children: <ConfirmBody options={options} onDone={finish} />,
    });
  });
}
