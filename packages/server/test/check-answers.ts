import type { CheckAnswer } from '../src/checks/answer-cache.js';

/** A looked-up mobile number, clean on the federal list: the shape of a check's answer, for the cache's tests. */
export const mobileAnswerOf = (phone: string): CheckAnswer => ({
  phone_number: phone,
  line_type: 'mobile',
  dnc: 0,
  invalid_reason: null,
  invalid_message: null,
  extension: null,
  dnc_sources: [],
  dnc_lists_checked: ['federal'],
  data_source: 'sample',
  dataset_versions: {},
});
