import { Code, Loader, Stack, Text } from '@mantine/core';
import type { AuthenticatorSetup } from '@scrub/sdk';
import { useEffect, useState } from 'react';

/**
 * The secret as a QR code for an authenticator app, and as text to type. `qrcode` is loaded when
 * the first QR code is drawn, so nobody else downloads it.
 */
export function AuthenticatorQr({ setup }: { setup: AuthenticatorSetup }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(setup.uri, { margin: 1, width: 200 }))
      .then(
        (url) => live && setImage(url),
        () => live && setImage(null),
      );
    return () => {
      live = false;
    };
  }, [setup.uri]);
  return (
    <Stack gap="xs" align="flex-start">
      {image ? (
        <img src={image} width={200} height={200} alt="QR code to scan with your authenticator app" />
      ) : (
        <Loader size="sm" aria-label="Drawing the QR code" />
      )}
      <Text size="sm">
        Or enter this key in the app: <Code data-testid="authenticator-secret">{setup.secret}</Code>
      </Text>
    </Stack>
  );
}

/** The ten single-use recovery codes, shown once, right after enrolment. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        Recovery codes: each signs you in once in place of a code from the app. Keep them somewhere safe. They
        are shown only now.
      </Text>
      <Code block data-testid="recovery-codes">
        {codes.join('\n')}
      </Code>
    </Stack>
  );
}
