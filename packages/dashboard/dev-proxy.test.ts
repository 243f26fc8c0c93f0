import { routes } from '@scrub/contract';
import { expect, test } from 'vitest';
import { proxyPattern } from './dev-proxy';

const proxied = new RegExp(proxyPattern());

test('vite dev proxies every route of the contract to the service', () => {
  const paths = Object.values(routes).map((route) => route.path.replace(/\{(\w+)\}|:(\w+)/g, 'x'));
  expect(paths.filter((path) => !proxied.test(path))).toEqual([]);
  expect(proxied.test('/dnc/numbers?page=2')).toBe(true);
  expect(proxied.test('/openapi.json')).toBe(true);
});

test("and the local stand-ins' paths, but not the dashboard's own screens and files", () => {
  for (const path of ['/identity', '/uploads/abc', '/_stripe/js/v3', '/_local/reset']) {
    expect(proxied.test(path), path).toBe(true);
  }
  for (const path of ['/', '/accountInfo', '/suppression', '/assets/index-abc.js', '/filesX']) {
    expect(proxied.test(path), path).toBe(false);
  }
});
