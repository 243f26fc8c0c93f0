import { Button, Text, TextInput } from '@mantine/core';
import type { AuthenticatorSetup } from '@scrub/sdk';
import { useRef, useState } from 'react';
import { AuthenticatorQr } from '../../common/authenticator-qr';

/** What sign-in asks for after the password: a code, or (a role that requires one) an app to set up first. */
export type SecondStep = { kind: 'code'; retry: boolean } | { kind: 'enrol'; setup: AuthenticatorSetup };

/**
 * The sign-in's second step as a question the SDK's `signIn` awaits: `ask` shows the step and
 * resolves with the code the form gives (`answer`); `step` is null when none is shown.
 */
export function useSecondStep() {
  const [step, setStep] = useState<SecondStep | null>(null);
  const give = useRef<((code: string) => void) | null>(null);
  const ask = (next: SecondStep) =>
    new Promise<string>((resolve) => {
      give.current = resolve;
      setStep(next);
    });
  return { step, ask, answer: (code: string) => give.current?.(code), done: () => setStep(null) };
}

/** The sign-in's second step: the code from the authenticator app (or a recovery code). */
export function SecondFactorForm({ step, onCode }: { step: SecondStep; onCode(code: string): void }) {
  const [code, setCode] = useState('');
  // Busy from a code sent until the sign-in asks again (a wrong code) or ends.
  const [sent, setSent] = useState<SecondStep | null>(null);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!code.trim()) return;
        onCode(code.trim());
        setCode('');
        setSent(step);
      }}
      noValidate
    >
      {step.kind === 'enrol' ? (
        <>
          <Text size="sm" mb="sm">
            Your role requires two-step sign-in. Scan this QR code with an authenticator app, then enter the
            code it shows.
          </Text>
          <AuthenticatorQr setup={step.setup} />
        </>
      ) : (
        <Text size="sm">
          {step.retry
            ? 'That code was not right. Enter the current code from your authenticator app.'
            : 'Enter the code from your authenticator app, or one of your recovery codes.'}
        </Text>
      )}
      <TextInput
        mt="sm"
        label="Code"
        autoFocus
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
      />
      <Button type="submit" fullWidth mt="lg" loading={sent === step}>
        Verify
      </Button>
    </form>
  );
}
