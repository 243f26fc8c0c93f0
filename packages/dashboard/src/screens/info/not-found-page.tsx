import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { StaticPage } from './static-page';

export default function NotFoundPage() {
  return (
    <StaticPage title="Page not found">
      <Text>
        There is nothing at this address.{' '}
        <Anchor component={Link} to="/">
          Go to the home page
        </Anchor>
        .
      </Text>
    </StaticPage>
  );
}
