import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Title } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { type ChangePasswordForm, ChangePasswordSchema } from '../../common/auth-schemas';
import { FormPasswordInput } from '../../common/form-fields';
import { showErrorDialog } from '../../shell/error-dialog';

export function PasswordForm() {
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(ChangePasswordSchema),
    defaultValues: { oldPassword: '', newPassword: '' },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ oldPassword, newPassword }) => {
    try {
      await scrub.auth.changePassword({ oldPassword, newPassword: newPassword.trim() });
      form.reset();
      showErrorDialog('Success', authMessages.passwordUpdated);
    } catch (failure) {
      showErrorDialog('Error', errorMessage(failure, 'Failed to update password. Please try again.'));
    }
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title">
        Update Password
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <FormPasswordInput
          form={form}
          name="oldPassword"
          mt="sm"
          label="Current password"
          autoComplete="current-password"
        />
        <FormPasswordInput
          form={form}
          name="newPassword"
          mt="sm"
          label="New password"
          autoComplete="new-password"
        />
        <Button type="submit" mt="md" loading={isSubmitting}>
          Update Password
        </Button>
      </form>
    </Paper>
  );
}
