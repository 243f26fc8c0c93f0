import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { adminMessages, type ManagedUser, PASSWORD_MIN_LENGTH, passwordLength } from '@scrub/contract';
import { useState } from 'react';
import { showFailure } from '../../common/show-failure';
import { useResetPassword } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';

/** The seed's checks, in its order: blank, too short, not the same. */
function problemOf(
  password: string,
  confirm: string,
): { field: 'password' | 'confirm'; message: string } | null {
  if (!password) return { field: 'password', message: adminMessages.passwordBlank };
  if (passwordLength(password) < PASSWORD_MIN_LENGTH)
    return { field: 'password', message: adminMessages.passwordTooShort };
  if (password !== confirm) return { field: 'confirm', message: adminMessages.confirmMismatch };
  return null;
}

/** Reset Password: two password fields; the user's earlier sessions end. */
export function ResetPasswordModal({ user, onClose }: { user: ManagedUser | null; onClose(): void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<ReturnType<typeof problemOf>>(null);
  const close = () => {
    setPassword('');
    setConfirm('');
    setProblem(null);
    onClose();
  };
  const reset = useResetPassword({
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      close();
    },
    onError: showFailure,
  });
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={user !== null}
      onClose={close}
      title={`Reset Password: ${user?.email ?? ''}`}
      centered
    >
      <Stack>
        <PasswordInput
          label="New password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={problem?.field === 'password' ? problem.message : null}
        />
        <PasswordInput
          label="Confirm password"
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          error={problem?.field === 'confirm' ? problem.message : null}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            loading={reset.isPending}
            onClick={() => {
              const found = problemOf(password, confirm);
              setProblem(found);
              if (!found) reset.mutate({ userId: user?.user_id ?? '', password, confirm });
            }}
          >
            Reset Password
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
