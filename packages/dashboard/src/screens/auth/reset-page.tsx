import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Text } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { type ResetForm, ResetSchema } from '../../common/auth-schemas';
import { EMAILED_CODE, FormPasswordInput, FormTextInput } from '../../common/form-fields';
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
  const { isSubmitting } = form.formState;
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
        <FormTextInput form={form} name="code" label="Code from the e-mail" {...EMAILED_CODE} withAsterisk />
        <FormPasswordInput
          form={form}
          name="password"
          mt="sm"
          label="New password"
          autoComplete="new-password"
          withAsterisk
        />
        <FormPasswordInput
          form={form}
          name="confirm"
          mt="sm"
          label="Confirm password"
          autoComplete="new-password"
          withAsterisk
        />
        <Button type="submit" fullWidth mt="lg" loading={isSubmitting}>
          Reset Password
        </Button>
      </form>
    </AuthCard>
  );
}
