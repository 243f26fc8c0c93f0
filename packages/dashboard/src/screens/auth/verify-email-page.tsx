import { Alert, Anchor, Text } from '@mantine/core';
import { authMessages } from '@scrub/sdk';
import { useState } from 'react';
import { Link } from 'react-router';
import { scrub } from '../../api/scrub-client';
import { SIGNUP_EMAIL_KEY } from '../../common/auth-schemas';
import { AuthCard } from './auth-card';

export default function VerifyEmailPage() {
  const email = window.localStorage.getItem(SIGNUP_EMAIL_KEY);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const resend = async () => {
    if (!email) return;
    try {
      await scrub.auth.resendCode({ email });
      setNotice({ ok: true, text: authMessages.codeResent });
    } catch {
      setNotice({ ok: false, text: 'Failed to resend code. Please try again later.' });
    }
  };

  return (
    <AuthCard title="Verify Your Email Address">
      <Text>
        We have sent an e-mail{email ? ` to ${email}` : ''}. Follow its instructions to verify your address.
      </Text>
      <Text>Please check your spam folder too.</Text>
      {email ? (
        <Text>
          Did not get it?{' '}
          <Anchor component="button" type="button" onClick={resend}>
            Click here
          </Anchor>{' '}
          to resend it, or{' '}
          <Anchor component={Link} to={`/confirmEmail?email=${encodeURIComponent(email)}`}>
            enter your code
          </Anchor>
          .
        </Text>
      ) : (
        <Text>
          <Anchor component={Link} to="/signup">
            Sign up
          </Anchor>{' '}
          first.
        </Text>
      )}
      {notice && (
        <Alert color={notice.ok ? 'teal' : 'red'} role="status">
          {notice.text}
        </Alert>
      )}
    </AuthCard>
  );
}
