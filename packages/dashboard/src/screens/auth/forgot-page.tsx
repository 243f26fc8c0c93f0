import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { authMessages, UserNotFoundError } from '@scrub/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { type ForgotForm, ForgotSchema } from '../../common/auth-schemas';
import { EmailField } from '../../common/form-fields';
import { AuthCard } from './auth-card';
import { FormError } from './form-parts';

export default function ForgotPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ForgotForm>({ resolver: zodResolver(ForgotSchema), defaultValues: { email: '' } });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setError(null);
    try {
      await scrub.auth.forgotPassword({ email });
      setSentTo(email);
    } catch (failure) {
      setError(
        failure instanceof UserNotFoundError
          ? authMessages.emailNotFound
          : errorMessage(failure, 'Failed to send reset code. Please try again.'),
      );
    }
  });

  if (sentTo) {
    // The seed's panel says "link", but the reset is done with the code in the e-mail.
    return (
      <AuthCard title="Password Reset Link Sent">
        <Stack>
          <Alert color="teal" role="status">
            {authMessages.resetCodeSent}
          </Alert>
          <Text>Enter the code from the e-mail and choose a new password.</Text>
          <Button component={Link} to={`/resetPassword?i=${encodeURIComponent(sentTo)}`}>
            Enter the code
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?">
      <Text size="sm">Enter your e-mail and we will send you a code to reset your password.</Text>
      <form onSubmit={onSubmit} noValidate>
        <EmailField form={form} name="email" />
        <FormError error={error} />
        <Button type="submit" fullWidth mt="lg" loading={isSubmitting}>
          Send Reset Password Link
        </Button>
      </form>
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/login">
          Back to Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
