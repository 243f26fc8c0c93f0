import { Alert } from '@mantine/core';
import { StaticPage } from './static-page';

/** Seed 1: user management is moving to the cloud identity service. */
export default function ComingSoonPage() {
  return (
    <StaticPage title="Coming Soon">
      <Alert color="blue" variant="light">
        User management is moving to a cloud identity service. Until then, users can be managed in that
        provider's console.
      </Alert>
    </StaticPage>
  );
}
