import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { sessionKey } from '../../auth/use-session';
import { EmailField, FormPasswordInput } from '../../common/form-fields';
import { type LoginForm, LoginSchema, SIGNUP_EMAIL_KEY } from '../../common/login-schema';
import { AuthCard } from './auth-card';
import { FormError } from './form-parts';
import { hostedSignInUrl, saveHostedReturnPath } from './hosted-sign-in';
import { takeLoginStandIn } from './login-stand-in-takeover';
import { SecondFactorForm, useSecondStep } from './second-factor-form';

/** Seed 1: an unconfirmed user reads the message, then goes to ConfirmEmail after 3 s. */
const UNCONFIRMED_REDIRECT_MS = 3000;

/** Offered when the pool has a hosted sign-in page; asked for after the form shows, never before. */
function HostedSignIn({ from }: { from: string | undefined }) {
  const [hosted, setHosted] = useState<string | null>(null);
  useEffect(() => {
    hostedSignInUrl().then(setHosted, () => setHosted(null));
  }, []);
  if (!hosted) return null;
  return (
    <Button
      component="a"
      href={hosted}
      variant="default"
      fullWidth
      onClick={() => saveHostedReturnPath(from)}
    >
      Use hosted sign-in
    </Button>
  );
}

/**
 * The entry's plain-DOM form (login-stand-in.ts), if shown: its values, its focus and a submit made
 * there carry on in this form, once, when the screen first mounts.
 */
function useStandInTakeover(form: UseFormReturn<LoginForm>, submit: () => Promise<void>) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen first mounts.
  useLayoutEffect(() => {
    const standIn = takeLoginStandIn();
    if (!standIn) return;
    form.reset({ email: standIn.email, password: standIn.password, remember: standIn.remember });
    // After this commit has been painted: the field is focusable then.
    const focused = standIn.focused;
    if (focused) setTimeout(() => form.setFocus(focused));
    if (standIn.submitted) void submit();
  }, []);
}

/** The address's `message`, shown once, then removed from the address so a reload does not repeat it. */
function useOnceMessage(): string | null {
  const [params, setParams] = useSearchParams();
  const [message] = useState(params.get('message'));
  useEffect(() => {
    if (params.has('message')) setParams({}, { replace: true });
  }, [params, setParams]);
  return message;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const message = useOnceMessage();
  const [error, setError] = useState<string | null>(null);
  const second = useSecondStep();
  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '', remember: true },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email, password, remember }) => {
    setError(null);
    // The SDK (about 40 KB gzip) is fetched while the visitor types, not before the form shows:
    // the hosted sign-in link below asks for it once the form is there (a visitor with no stored
    // sign-in is known signed out without it: auth/stored-session-hint.ts).
    const [{ scrub, tokenStorage }, { authMessages, UserNotConfirmedError }, { errorMessage }] =
      await Promise.all([
        import('../../api/scrub-client'),
        import('@scrub/sdk'),
        import('../../api/error-message'),
      ]);
    tokenStorage.setRemember(remember);
    try {
      const session = await scrub.auth.signIn({
        email,
        password,
        mfaCode: ({ retry }) => second.ask({ kind: 'code', retry }),
        enrolAuthenticator: (setup) => second.ask({ kind: 'enrol', setup }),
      });
      queryClient.setQueryData(sessionKey, session);
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from ?? '/accountInfo', { replace: true });
    } catch (failure) {
      if (failure instanceof UserNotConfirmedError) {
        setError(authMessages.confirmFirst);
        window.localStorage.setItem(SIGNUP_EMAIL_KEY, email);
        setTimeout(
          () => navigate(`/confirmEmail?email=${encodeURIComponent(email)}`),
          UNCONFIRMED_REDIRECT_MS,
        );
        return;
      }
      setError(errorMessage(failure, authMessages.invalidCredentials));
    } finally {
      second.done();
    }
  });

  useStandInTakeover(form, onSubmit);

  if (second.step) {
    return (
      <AuthCard title="Two-step sign-in">
        <SecondFactorForm step={second.step} onCode={second.answer} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Log in">
      {message && (
        <Alert color="teal" role="status">
          {message}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <EmailField form={form} name="email" />
        <FormPasswordInput
          form={form}
          name="password"
          mt="sm"
          label="Password"
          autoComplete="current-password"
          withAsterisk
        />
        <Group justify="space-between" mt="md">
          <Checkbox label="Remember me" {...form.register('remember')} />
          <Anchor component={Link} to="/forgot" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <FormError error={error} />
        <Button type="submit" fullWidth mt="lg" loading={isSubmitting}>
          Log In
        </Button>
      </form>
      <HostedSignIn from={(location.state as { from?: string } | null)?.from} />
      <SignUpLink />
    </AuthCard>
  );
}

function SignUpLink() {
  return (
    <Text size="sm" ta="center">
      No account yet?{' '}
      <Anchor component={Link} to="/signup">
        Sign up
      </Anchor>
    </Text>
  );
}
