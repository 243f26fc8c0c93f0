import { fireEvent, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../test/render';
import { CompactVisitorLinks } from './header-links';

test("below 992 px a visitor's header has Log In, Sign Up, and a menu with Pricing, How It Works and FAQ", async () => {
  renderScreen(<CompactVisitorLinks />);
  expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
  expect(screen.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/signup');
  fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
  const menu = await screen.findByRole('menu');
  const items = [...menu.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]);
  expect(items).toEqual([
    ['Pricing', '/#pricing'],
    ['How It Works', '/#how-it-works'],
    ['FAQ', '/faqs'],
  ]);
});
