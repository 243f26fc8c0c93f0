import { Button, Text, TextInput } from '@mantine/core';
import type { AuthenticatorSetup } from '@scrub/sdk';
import { useState } from 'react';
import { AuthenticatorQr } from '../../common/authenticator-qr';

/** What sign-in asks for after the password: a code, or (a role that requires one) an app to set up first. */
export type SecondStep = { kind: 'code'; retry: boolean } | { kind: 'enrol'; setup: AuthenticatorSetup };

/** The sign-in's second step: the code from the authenticator app (or a recovery code). */
export function SecondFactorForm({
  step,
  busy,
  onCode,
}: {
  step: SecondStep;
  busy: boolean;
  onCode(code: string): void;
}) {
  const [code, setCode] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (code.trim()) onCode(code.trim());
        setCode('');
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
      <Button type="submit" fullWidth mt="lg" loading={busy}>
        Verify
      </Button>
    </form>
  );
}
