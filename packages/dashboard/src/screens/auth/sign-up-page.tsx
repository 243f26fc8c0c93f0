import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, Loader, Text } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { SIGNUP_EMAIL_KEY, type SignUpForm, SignUpSchema } from '../../common/auth-schemas';
import { EmailField, FormPasswordInput } from '../../common/form-fields';
import { AuthCard } from './auth-card';
import { FormError } from './form-parts';

/** Seed 1: after the success message, ConfirmEmail follows in 2 seconds. */
const REDIRECT_MS = 2000;

export default function SignUpPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const form = useForm<SignUpForm>({
    resolver: zodResolver(SignUpSchema),
    defaultValues: { email: '', password: '', terms: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setError(null);
    try {
      await scrub.auth.signUp({ email, password });
      window.localStorage.setItem(SIGNUP_EMAIL_KEY, email);
      setSuccess(authMessages.signedUp);
      setTimeout(() => navigate(`/confirmEmail?email=${encodeURIComponent(email)}`), REDIRECT_MS);
    } catch (failure) {
      setError(errorMessage(failure, 'Registration failed'));
    }
  });

  return (
    <AuthCard title="Create your account">
      <form onSubmit={onSubmit} noValidate>
        <EmailField form={form} name="email" placeholder="EMAIL*" />
        <FormPasswordInput
          form={form}
          name="password"
          mt="sm"
          label="Password"
          placeholder="PASSWORD*"
          autoComplete="new-password"
          withAsterisk
        />
        <Checkbox
          mt="md"
          label={
            <>
              I accept the{' '}
              <Anchor component={Link} to="/terms" inherit>
                Terms of Service
              </Anchor>
            </>
          }
          error={errors.terms?.message}
          {...form.register('terms')}
        />
        <FormError error={error} />
        {success && (
          <Alert color="teal" mt="md" role="status">
            {success}
          </Alert>
        )}
        <Button
          type="submit"
          fullWidth
          mt="lg"
          leftSection={isSubmitting ? <Loader size="xs" color="white" aria-hidden /> : null}
          disabled={isSubmitting || Boolean(success)}
        >
          {isSubmitting ? 'Signing in...' : 'Sign Up'}
        </Button>
      </form>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
