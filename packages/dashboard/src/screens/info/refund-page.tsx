import { Text } from '@mantine/core';
import { StaticPage } from './static-page';

export default function RefundPage() {
  return (
    <StaticPage title="Refund Policy">
      <Text>Credits are non-refundable once purchased.</Text>
      <Text>
        Subscriptions renew monthly. Cancel at least 24 hours before the renewal date and you will not be
        charged for the next period; the current period is not refunded.
      </Text>
      <Text>
        When a bulk job fails, its credits are returned to your balance automatically. Duplicate numbers in
        one file are charged once.
      </Text>
    </StaticPage>
  );
}
