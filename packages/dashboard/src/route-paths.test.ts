import { routes as apiRoutes } from '@scrub/contract';
import { SCREENS_ON_API_PATHS } from '@scrub/server';
import type { RouteObject } from 'react-router';
import { expect, test } from 'vitest';
import { routes as dashboardRoutes } from './routes';

/** Every path the dashboard's router serves a screen at (the catch-all aside). */
function screenPaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path && route.path !== '*' ? [route.path] : []),
    ...screenPaths(route.children ?? []),
  ]);
}

/** The path's segments, a parameter (`:userId`, `{user_id}`) as null: it matches any segment. */
const segments = (path: string) =>
  path
    .split('/')
    .slice(1)
    .map((segment) => (/^(:|\{)/.test(segment) ? null : segment));

/** Whether one URL can reach both paths. */
function collide(screen: string, api: string): boolean {
  const a = segments(screen);
  const b = segments(api);
  return a.length === b.length && a.every((part, i) => part === null || b[i] === null || part === b[i]);
}

test('no screen shares its path with a GET API route, but the screens the service answers a page load for', () => {
  // A reload or a bookmark is a GET: on an API path it would show the API's JSON, not the screen.
  // Other methods do not matter: a page load of `/contact` is a GET, which no API route takes there.
  const apiGets = Object.values(apiRoutes)
    .filter((route) => route.method === 'GET')
    .map((route) => route.path);
  const collisions = screenPaths(dashboardRoutes).filter((screen) =>
    apiGets.some((api) => collide(screen, api)),
  );
  expect(collisions.sort()).toEqual([...SCREENS_ON_API_PATHS].sort());
});
