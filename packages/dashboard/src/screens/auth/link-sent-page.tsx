import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { AuthCard } from './auth-card';

export default function LinkSentPage() {
  return (
    <AuthCard title="Check your e-mail">
      <Text>We have sent you an e-mail. Please check your spam folder too.</Text>
      <Text>
        If it does not arrive within a few minutes,{' '}
        <Anchor component={Link} to="/contact">
          contact support
        </Anchor>
        .
      </Text>
    </AuthCard>
  );
}
