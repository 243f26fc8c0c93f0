import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { faqAnswers } from '../../common/faq-answers';
import { SearchableAnswers } from '../../common/searchable-answers';
import { StaticPage } from './static-page';

export default function FaqsPage() {
  return (
    <StaticPage title="Frequently Asked Questions">
      <SearchableAnswers answers={faqAnswers} label="Search the FAQs" />
      <Text>
        Still have a question?{' '}
        <Anchor component={Link} to="/contact">
          Contact us
        </Anchor>
        .
      </Text>
    </StaticPage>
  );
}
