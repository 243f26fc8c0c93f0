import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '@scrub/contract';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from './config.js';

/**
 * The deployment examples in deploy/ are written from the settings that exist: every variable they
 * set is one the server reads, with a value it accepts, and their probes ask the service's own
 * routes on the port it listens on. No cluster is needed: the files are read as data.
 */
const deployDir = join(import.meta.dirname, '..', '..', '..', '..', 'deploy');
const read = (path: string) => readFileSync(join(deployDir, path), 'utf8');

/** Every environment variable the server's settings read (loadConfig asks for each by name). */
function settingNames(): Set<string> {
  const asked = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(target, name) {
      if (typeof name === 'string') asked.add(name);
      return Reflect.get(target, name);
    },
  });
  loadConfig(env);
  return asked;
}

const SETTINGS = settingNames();
/** The names among `names` that no setting of the server reads. */
const unknownSettings = (names: Iterable<string>) => [...names].filter((name) => !SETTINGS.has(name));

interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  name: string;
  args: string[];
  ports: { name: string; containerPort: number }[];
  envFrom: ({ configMapRef: { name: string } } | { secretRef: { name: string } })[];
  env: { name: string; value: string }[];
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Probe;
  lifecycle?: { preStop: { exec: { command: string[] } } };
  resources: { requests: { cpu: string; memory: string }; limits: { memory: string } };
  volumeMounts: { name: string; mountPath: string }[];
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    template: { spec: { terminationGracePeriodSeconds: number; containers: Container[] } };
  };
}

describe('the Kubernetes example (deploy/kubernetes/scrub.yaml)', () => {
  const manifests = parseAllDocuments(read('kubernetes/scrub.yaml')).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Manifest;
  });
  const named = (kind: string, name: string) =>
    manifests.find((m) => m.kind === kind && m.metadata.name === name) as Manifest;
  const settings = named('ConfigMap', 'scrub-settings').data!;
  const secrets = named('Secret', 'scrub-secrets').stringData!;
  const deployments = ['scrub-api', 'scrub-worker'].map((name) => named('Deployment', name));
  /** What one container's process sees: the ConfigMap, the Secret, then its own `env`. */
  const environmentOf = (container: Container) => ({
    ...settings,
    ...secrets,
    ...Object.fromEntries(container.env.map((e) => [e.name, e.value])),
  });

  it('sets only variables the server reads, with values it accepts', () => {
    expect(unknownSettings(Object.keys(settings))).toEqual([]);
    expect(unknownSettings(Object.keys(secrets))).toEqual([]);
    for (const deployment of deployments) {
      const [container] = deployment.spec.template.spec.containers;
      expect(unknownSettings(container!.env.map((e) => e.name))).toEqual([]);
      expect(container!.envFrom).toEqual([
        { configMapRef: { name: 'scrub-settings' } },
        { secretRef: { name: 'scrub-secrets' } },
      ]);
      const config = loadConfig(environmentOf(container!));
      expect(config).toMatchObject({ production: true, host: '0.0.0.0', database: { kind: 'postgres' } });
      expect(config.blobStore.kind).toBe('s3');
      expect(config.requireDnc).toEqual(['federal']);
    }
  });

  it('runs API processes without the worker and worker processes with it, both `scrub-server start`', () => {
    const [api, worker] = deployments.map((d) => d.spec.template.spec.containers[0]!);
    expect(loadConfig(environmentOf(api!)).runBulkWorker).toBe(false);
    expect(loadConfig(environmentOf(worker!)).runBulkWorker).toBe(true);
    for (const container of [api!, worker!]) expect(container.args).toEqual(['scrub-server', 'start']);
    const service = named('Service', 'scrub-api') as unknown as {
      spec: { selector: Record<string, string> };
    };
    expect(service.spec.selector['app.kubernetes.io/component']).toBe('api');
  });

  it("probes the service's own liveness and readiness routes on the port it listens on", () => {
    for (const deployment of deployments) {
      const container = deployment.spec.template.spec.containers[0]!;
      const port = loadConfig(environmentOf(container)).port;
      const http = container.ports.find((p) => p.name === 'http');
      expect(http?.containerPort).toBe(port);
      expect(container.startupProbe.httpGet).toEqual({ path: routes.healthLive.path, port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: routes.healthLive.path, port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: routes.healthReady.path, port: 'http' });
    }
  });

  it('gives the shutdown its grace before Kubernetes kills, keeps the data directory in the volume, and sets resources', () => {
    for (const deployment of deployments) {
      const { terminationGracePeriodSeconds, containers } = deployment.spec.template.spec;
      const container = containers[0]!;
      const config = loadConfig(environmentOf(container));
      const preStop = Number(container.lifecycle?.preStop.exec.command[1] ?? 0);
      // The pause, the grace, then 5 s to close the database (commands/start.ts): all before SIGKILL.
      expect(preStop + config.timeouts.shutdownGraceMs / 1000 + 5).toBeLessThanOrEqual(
        terminationGracePeriodSeconds,
      );
      expect(container.volumeMounts.some((m) => config.dataDir.startsWith(`${m.mountPath}/`))).toBe(true);
      expect(container.resources.requests.memory).toMatch(/Mi$/);
      expect(container.resources.limits.memory).toMatch(/(Mi|Gi)$/);
    }
    expect(deployments[0]!.spec.template.spec.containers[0]!.lifecycle?.preStop.exec.command[0]).toBe(
      'sleep',
    );
  });
});

describe('the systemd unit (deploy/systemd/scrub-server.service, scrub.env)', () => {
  const unit = read('systemd/scrub-server.service');
  const directives = (name: string) =>
    unit
      .split('\n')
      .filter((line) => line.startsWith(`${name}=`))
      .map((line) => line.slice(name.length + 1));
  const unitEnv = Object.fromEntries(
    directives('Environment').map((pair) => [
      pair.slice(0, pair.indexOf('=')),
      pair.slice(pair.indexOf('=') + 1),
    ]),
  );
  const fileEnv = Object.fromEntries(
    read('systemd/scrub.env')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

  it('sets only variables the server reads, with values it accepts', () => {
    expect(unknownSettings(Object.keys(unitEnv))).toEqual([]);
    expect(unknownSettings(Object.keys(fileEnv))).toEqual([]);
    expect(directives('EnvironmentFile')).toEqual(['/etc/scrub/scrub.env']);
    const config = loadConfig({ ...fileEnv, ...unitEnv });
    expect(config).toMatchObject({
      production: true,
      database: { kind: 'postgres' },
      dataDir: '/var/lib/scrub',
    });
    expect(directives('StateDirectory')).toEqual(['scrub']);
  });

  it('runs `scrub-server start` and waits out the shutdown grace before it kills', () => {
    expect(directives('ExecStart')).toEqual(['/usr/bin/scrub-server start']);
    expect(directives('KillSignal')).toEqual(['SIGTERM']);
    const config = loadConfig({ ...fileEnv, ...unitEnv });
    expect(config.timeouts.shutdownGraceMs / 1000 + 5).toBeLessThanOrEqual(
      Number(directives('TimeoutStopSec')[0]),
    );
    // A wrong setting (exit 2) is not retried forever.
    expect(directives('RestartPreventExitStatus')).toEqual(['2']);
  });
});
