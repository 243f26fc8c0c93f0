import type { Answer } from './searchable-answers';

/** Seed 1's three FAQs: data accuracy, CSV format, minimum purchase. */
export const faqAnswers: Answer[] = [
  {
    question: 'How accurate is the data?',
    answer:
      'Line types and do-not-call status come from the exchange data and registries our operator imports, updated regularly. Accuracy is high but not guaranteed: numbers are ported between carriers every day, and the do-not-call registry can take up to 31 days to list a new number.',
  },
  {
    question: 'What format does my CSV file need?',
    answer:
      'A .csv file with a header row and one column of phone numbers (any common format: 2012345678, (201) 234-5678, +1 201 234 5678). Comma, semicolon and tab separators are detected. Every column you send comes back unchanged, with Line Type and DNC added.',
  },
  {
    question: 'What is the minimum purchase?',
    answer: 'The smallest purchase is $5, roughly 2,850 credits. One credit checks one phone number.',
  },
];
