import { Alert, Anchor, Loader, Text } from '@mantine/core';
import type { CreditSnapshot } from '@scrub/sdk';
import { Link } from 'react-router';
import { creditsLeft, isUnlimited } from '../../credits/format-credits';

/** Seed 2's info banner: the count and its credits, and what the plan says about them. */
export function QuoteBanner({ records, credits }: { records: number | null; credits: CreditSnapshot }) {
  if (records === null) {
    return (
      <Alert color="blue" variant="light" icon={<Loader size="xs" aria-hidden />}>
        Counting phone numbers...
      </Alert>
    );
  }
  const count = records.toLocaleString('en-US');
  const unlimited = isUnlimited(credits);
  const short = !unlimited && creditsLeft(credits) < records;
  return (
    <Alert color={short ? 'red' : 'blue'} variant="light" data-testid="quote">
      <Text fw={600}>
        Found {count} phone numbers (requires {count} credits)
      </Text>
      {unlimited && <Text>Unlimited plan active, no credits required</Text>}
      {short && (
        <Text>
          You only have {creditsLeft(credits).toLocaleString('en-US')} credits.{' '}
          <Anchor component={Link} to="/purchase" inherit>
            Buy more credits
          </Anchor>
        </Text>
      )}
    </Alert>
  );
}
