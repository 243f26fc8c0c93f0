import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/**
 * What jsdom lacks and Mantine asks for (its own test setup adds the same): media queries, element
 * resizes, scrolling and font loading. Nothing here answers for the service: the tests that need it start it.
 */
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.scrollTo = () => undefined;
// Mantine's autosizing Textarea measures again once web fonts load.
Object.defineProperty(document, 'fonts', {
  value: { addEventListener: () => undefined, removeEventListener: () => undefined },
});
Element.prototype.scrollIntoView = () => undefined;

afterEach(() => cleanup());
