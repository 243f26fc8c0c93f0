import { checkPhone } from '@scrub/engine';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../../test/render';
import { ApiDocs, SAMPLE_NUMBER } from './api-docs';

test("the examples' number is one the service answers as valid, not a reserved 555-01xx", () => {
  renderScreen(<ApiDocs apiKey="sk_test" />);
  const curl = screen.getAllByText(/^curl /)[0]?.textContent ?? '';
  const sample = /[?&]p=(\d+)/.exec(curl)?.[1] ?? '';
  expect(sample).toBe(SAMPLE_NUMBER);
  expect(checkPhone(sample).lineType).not.toBe('invalid');
});
