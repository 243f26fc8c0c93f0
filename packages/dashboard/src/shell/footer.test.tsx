import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../test/render';
import { Footer } from './footer';

test('the footer links to the contact page and the policies', () => {
  renderScreen(<Footer showLinks />);
  const links = screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
  expect(links).toEqual([
    ['Contact', '/contact'],
    ['Refund Policy', '/RefundPolicy'],
    ['Terms', '/terms'],
    ['Privacy Policy', '/privacypolicy'],
  ]);
});

test('without links, only the copyright', () => {
  renderScreen(<Footer showLinks={false} />);
  expect(screen.queryAllByRole('link')).toEqual([]);
  expect(screen.getByText(/Scrub\. All rights reserved\./).textContent).toContain(
    String(new Date().getFullYear()),
  );
});
