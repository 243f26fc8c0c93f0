import { SearchableAnswers } from '../../common/searchable-answers';
import { StaticPage } from './static-page';

/** Seed 1's three common problems and their solutions. */
const problems = [
  {
    question: 'My file upload fails',
    answer:
      'Only CSV files are accepted: save your spreadsheet as CSV (comma separated values, .csv) and upload it again.',
  },
  {
    question: 'A contact says they are on the do-not-call list, but the result shows them clean',
    answer:
      'The national do-not-call registry can take up to 31 days to list a newly registered number. Check the number again later.',
  },
  {
    question: 'My API key does not work',
    answer:
      'Generate a new key on the API page (it replaces the old one at once) and try again with the new key. If it still fails, contact support.',
  },
];

export default function TroubleshootingPage() {
  return (
    <StaticPage title="Common Problems / Solutions">
      <SearchableAnswers answers={problems} label="Search problems" />
    </StaticPage>
  );
}
