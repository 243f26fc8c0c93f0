import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { AuthenticatorSetup } from '@scrub/sdk';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { AuthenticatorQr, RecoveryCodes } from '../../common/authenticator-qr';

type State =
  | { kind: 'loading' }
  | { kind: 'off' }
  | { kind: 'on' }
  | { kind: 'enrolling'; setup: AuthenticatorSetup }
  | { kind: 'enrolled'; recoveryCodes: string[] | null };

/**
 * Two-step sign-in: set up an authenticator app (scan the QR code, type its code), see the
 * recovery codes once; or turn it off (refused, with the reason, where the role requires it).
 */
export function AuthenticatorCard() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    scrub.auth.authenticator.status().then(
      ({ enabled }) => setState({ kind: enabled ? 'on' : 'off' }),
      (failure: unknown) => {
        setError(errorMessage(failure));
        setState({ kind: 'off' });
      },
    );
  }, []);

  async function run(action: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      setCode('');
      setState({ kind: 'enrolling', setup: await scrub.auth.authenticator.setUp() });
    });
  const confirm = () =>
    run(async () => {
      const { recoveryCodes } = await scrub.auth.authenticator.confirm({ code });
      setState({ kind: 'enrolled', recoveryCodes });
    });
  const turnOff = () =>
    run(async () => {
      await scrub.auth.authenticator.disable();
      setState({ kind: 'off' });
    });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="authenticator-title">
      <Title order={2} size="h4" id="authenticator-title">
        Two-step sign-in
      </Title>
      <Stack mt="sm" gap="sm">
        {state.kind === 'off' && (
          <>
            <Text size="sm">Sign in with your password and a code from an authenticator app.</Text>
            <Group>
              <Button onClick={start} loading={busy}>
                Set up authenticator app
              </Button>
            </Group>
          </>
        )}
        {state.kind === 'enrolling' && (
          <EnrolForm setup={state.setup} code={code} busy={busy} onCode={setCode} onSubmit={confirm} />
        )}
        {state.kind === 'enrolled' && (
          <>
            <Alert color="teal" role="status">
              Two-step sign-in is on: sign-in now asks for a code from your app.
            </Alert>
            {state.recoveryCodes && <RecoveryCodes codes={state.recoveryCodes} />}
            <Group>
              <Button variant="default" onClick={() => setState({ kind: 'on' })}>
                I have saved them
              </Button>
            </Group>
          </>
        )}
        {state.kind === 'on' && (
          <>
            <Text size="sm">Sign-in asks for a code from your authenticator app.</Text>
            <Group>
              <Button variant="default" onClick={start} loading={busy}>
                Move to a new app
              </Button>
              <Button color="red" variant="light" onClick={turnOff} loading={busy}>
                Turn off
              </Button>
            </Group>
          </>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** The QR code, the key to type, and the app's first code. */
function EnrolForm({
  setup,
  code,
  busy,
  onCode,
  onSubmit,
}: {
  setup: AuthenticatorSetup;
  code: string;
  busy: boolean;
  onCode(code: string): void;
  onSubmit(): void;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <AuthenticatorQr setup={setup} />
      <TextInput
        mt="sm"
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => onCode(event.currentTarget.value)}
      />
      <Button type="submit" mt="sm" loading={busy}>
        Turn on
      </Button>
    </form>
  );
}
