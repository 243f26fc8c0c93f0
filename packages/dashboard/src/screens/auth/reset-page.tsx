import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { type ResetForm, ResetSchema } from '../../common/auth-schemas';
import { showErrorDialog } from '../../shell/error-dialog';
import { AuthCard } from './auth-card';

/** `i` is the e-mail the reset code was sent to (Forgot puts it there). */
export default function ResetPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const email = params.get('i');
  const form = useForm<ResetForm>({
    resolver: zodResolver(ResetSchema),
    defaultValues: { code: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  if (!email) return <Navigate to="/forgot" replace />;

  const onSubmit = form.handleSubmit(async ({ code, password }) => {
    try {
      await scrub.auth.confirmForgotPassword({ email, code, newPassword: password });
      showErrorDialog('Success', authMessages.passwordReset);
      navigate('/login');
    } catch (failure) {
      showErrorDialog('Error', errorMessage(failure, 'Failed to reset password. Please try again.'));
    }
  });

  return (
    <AuthCard title="Reset Password">
      <Text size="sm">Choose a new password for {email}.</Text>
      <form onSubmit={onSubmit} noValidate>
        <TextInput
          label="Code from the e-mail"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          withAsterisk
          error={errors.code?.message}
          {...form.register('code')}
        />
        <PasswordInput
          mt="sm"
          label="New password"
          autoComplete="new-password"
          withAsterisk
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordInput
          mt="sm"
          label="Confirm password"
          autoComplete="new-password"
          withAsterisk
          error={errors.confirm?.message}
          {...form.register('confirm')}
        />
        <Button type="submit" fullWidth mt="lg" loading={isSubmitting}>
          Reset Password
        </Button>
      </form>
    </AuthCard>
  );
}
