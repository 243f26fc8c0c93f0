import { Scrub } from '@scrub/sdk';
import { planCatalogue } from '@scrub/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, scrub, startServer } from './harness.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});

describe('the plan catalogue, from a started scrub-server', () => {
  it('is what GET /plans answers', async () => {
    const response = await fetch(`${server.url}/plans`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ plans: planCatalogue });
  });

  it('is what `scrub --json plans` prints, the same plans as the SDK returns', async () => {
    const fromSdk = await new Scrub({ baseURL: server.url }).plans.list();
    const result = await scrub(['--json', 'plans', '--api-url', server.url]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(fromSdk);
    expect(fromSdk.map((plan) => plan.plan_reference)).toEqual(
      planCatalogue.map((plan) => plan.plan_reference),
    );
  });

  it('is what `scrub plans` prints as a table', async () => {
    const result = await scrub(['plans', '--api-url', server.url]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/79541679412211\s*│\s*STANDARD\s*│\s*postpaid\s*│\s*\$49\/month\s*│/);
    expect(result.stdout).toMatch(/79541679412212\s*│\s*POWER\s*│\s*postpaid\s*│\s*\$99\/month\s*│/);
    expect(result.stdout).toMatch(/79541679412214\s*│\s*ELITE\s*│\s*postpaid\s*│\s*\$129\/month\s*│/);
  });
});
