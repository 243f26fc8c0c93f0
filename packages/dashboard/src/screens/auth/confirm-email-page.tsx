import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Text, TextInput } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { type ConfirmCodeForm, ConfirmCodeSchema, SIGNUP_EMAIL_KEY } from '../../common/auth-schemas';
import { EMAILED_CODE } from '../../common/form-fields';
import { AuthCard } from './auth-card';
import { FormError } from './form-parts';

/** Seed 1: a new code may be asked for 60 s after the last one. */
const RESEND_COOLDOWN_S = 60;
const REDIRECT_MS = 2000;

/** Seconds until a new code may be asked for, and a way to start the wait again. */
function useResendCooldown(): [number, () => void] {
  // A deadline, not a count of ticks: a background tab's timers are slowed, its clock is not.
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_COOLDOWN_S * 1000);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= resendAt) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [now, resendAt]);
  const restart = () => {
    setResendAt(Date.now() + RESEND_COOLDOWN_S * 1000);
    setNow(Date.now());
  };
  return [Math.max(0, Math.ceil((resendAt - now) / 1000)), restart];
}

export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const email = params.get('email') ?? window.localStorage.getItem(SIGNUP_EMAIL_KEY);
  const [cooldown, restartCooldown] = useResendCooldown();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const form = useForm<ConfirmCodeForm>({
    resolver: zodResolver(ConfirmCodeSchema),
    defaultValues: { code: '' },
  });
  const code = form.watch('code');
  const { isSubmitting } = form.formState;

  if (!email) return <Navigate to="/signup" replace />;

  const onSubmit = form.handleSubmit(async ({ code: entered }) => {
    setError(null);
    setNotice(null);
    try {
      await scrub.auth.confirmSignUp({ email, code: entered });
      window.localStorage.removeItem(SIGNUP_EMAIL_KEY);
      setConfirmed(true);
      setTimeout(
        () => navigate(`/login?message=${encodeURIComponent('Email verified! Please log in.')}`),
        REDIRECT_MS,
      );
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to confirm email. Please try again.'));
    }
  });

  const resend = async () => {
    setError(null);
    try {
      await scrub.auth.resendCode({ email });
      setNotice(authMessages.codeResent);
      restartCooldown();
    } catch {
      setError('Failed to resend code. Please try again later.');
    }
  };

  return (
    <AuthCard title="Confirm your email">
      <Text>
        We sent a 6-digit code to <strong>{email}</strong>.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <TextInput
          label="Verification code"
          {...EMAILED_CODE}
          placeholder="123456"
          {...form.register('code', {
            // Digits only, as the 6-digit rule expects.
            onChange: (event) => form.setValue('code', event.target.value.replace(/\D/g, '').slice(0, 6)),
          })}
        />
        <FormError error={error} />
        {notice && (
          <Alert color="teal" mt="md" role="status">
            {notice}
          </Alert>
        )}
        {confirmed && (
          <Alert color="teal" mt="md" role="status">
            {authMessages.emailConfirmed} Redirecting to login...
          </Alert>
        )}
        <Button type="submit" fullWidth mt="lg" disabled={code.length !== 6 || isSubmitting || confirmed}>
          Confirm Email
        </Button>
      </form>
      <Text size="sm" ta="center">
        {cooldown > 0 ? (
          <span data-testid="resend-countdown">Resend in {cooldown}s</span>
        ) : (
          <Anchor component="button" type="button" onClick={resend}>
            Resend Code
          </Anchor>
        )}
      </Text>
    </AuthCard>
  );
}
