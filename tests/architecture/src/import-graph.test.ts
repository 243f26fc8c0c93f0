import { describe, expect, it } from 'vitest';
import { circlesOf, type Import, importsOf, isTest, workspacePackages } from './import-graph.js';

/**
 * The server's floors, from the ground up (paths under packages/server/src/). A file may import
 * files of its own floor and of the floors below, never above: errors and configuration know no
 * feature, features know no route, and only the top chooses what runs (the built-in user pool and
 * payment provider, or Cognito and Stripe) and starts it.
 */
const SERVER_LAYERS: { name: string; paths: string[] }[] = [
  {
    name: 'foundation',
    paths: ['errors/', 'version.ts', 'process-alive.ts', 'release-start-memory.ts', 'poll-pause.ts'],
  },
  { name: 'configuration', paths: ['config/'] },
  // Spans (OpenTelemetry's loaded only when tracing is on): storage and everything above add to them.
  { name: 'tracing', paths: ['tracing/'] },
  { name: 'storage', paths: ['storage/'] },
  {
    name: 'infrastructure',
    paths: ['mail/', 'blob-store/', 'local-control/', 'dashboard/', 'backup/', 'metrics/'],
  },
  {
    name: 'features',
    paths: [
      'auth/',
      'rate-limit/',
      'contact/',
      'identity-admin/',
      'account/',
      'plans/',
      'reference-data/',
      'registry-inbox/',
      'reassigned/',
      'checks/',
      'usage/',
      'carrier-lookup/',
      'suppression/',
      'operator-lists/',
      'bulk/',
      'proof/',
      'webhooks/',
      'admin/',
      'payment-provider/',
      'payments/',
    ],
  },
  // The HTTP face: the framework's plumbing and the route registry (http/), what handlers get (context.ts), the routes.
  { name: 'routes', paths: ['http/', 'context.ts', 'routes/'] },
  {
    name: 'top',
    paths: ['wiring/', 'app.ts', 'server.ts', 'logger.ts', 'commands/', 'bin.ts', 'index.ts'],
  },
];

/**
 * The SDK's pattern, kept on purpose: the client builds its resources, and each resource holds its
 * client (`core/resource.ts`) to send requests. A circle made only of these files is allowed.
 */
const SDK_CLIENT_AND_RESOURCES = (file: string) =>
  file === 'packages/sdk/src/client.ts' ||
  file === 'packages/sdk/src/core/resource.ts' ||
  file.startsWith('packages/sdk/src/resources/');

const packages = workspacePackages();
const imports: Import[] = packages.flatMap((pkg) => pkg.files.flatMap(importsOf));
const packageOf = (file: string) =>
  packages.find((pkg) => file.startsWith(`${pkg.dir}/`))?.dir ?? '(no package)';

function serverLayerOf(file: string): number {
  const path = file.slice('packages/server/src/'.length);
  return SERVER_LAYERS.findIndex((layer) =>
    layer.paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)),
  );
}

describe('the import graph', () => {
  it('reads every package', () => {
    expect(packages.map((pkg) => pkg.dir)).toEqual(
      expect.arrayContaining([
        'packages/server',
        'packages/sdk',
        'packages/dashboard',
        'packages/stripe-local',
      ]),
    );
    expect(imports.length).toBeGreaterThan(1000);
  });

  it('gives every server source file a floor', () => {
    const server = packages.find((pkg) => pkg.dir === 'packages/server')!;
    const unplaced = server.files
      .filter((file) => file.startsWith('packages/server/src/') && !isTest(file))
      .filter((file) => serverLayerOf(file) === -1);
    expect(unplaced, 'name the floor of these files in SERVER_LAYERS').toEqual([]);
  });

  it('has no import that points back up inside the server', () => {
    const upward = imports
      .filter((i) => i.from.startsWith('packages/server/src/') && !isTest(i.from))
      .filter((i) => i.to?.startsWith('packages/server/src/'))
      .filter((i) => serverLayerOf(i.to!) > serverLayerOf(i.from))
      .map(
        (i) =>
          `${i.from} (${SERVER_LAYERS[serverLayerOf(i.from)]?.name}) -> ${i.to} (${SERVER_LAYERS[serverLayerOf(i.to!)]?.name})`,
      );
    expect(upward).toEqual([]);
  });

  it('has no circle of imports inside a package', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (isTest(i.from) || !i.to || isTest(i.to) || packageOf(i.from) !== packageOf(i.to)) continue;
      if (!edges.has(i.from)) edges.set(i.from, new Set());
      edges.get(i.from)!.add(i.to);
    }
    const circles = circlesOf(edges).filter((circle) => !circle.every(SDK_CLIENT_AND_RESOURCES));
    expect(circles).toEqual([]);
  });

  it('reaches another package only through its name, never into its folder', () => {
    const crossing = imports
      .filter((i) =>
        i.to ? packageOf(i.to) !== packageOf(i.from) : /^@scrub\/[^/]+\/src\//.test(i.specifier),
      )
      .map((i) => `${i.from} -> ${i.specifier}`);
    expect(crossing).toEqual([]);
  });
});
