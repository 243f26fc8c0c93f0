#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startLocalCognito } from './start-local-cognito.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9329' },
    host: { type: 'string', default: '127.0.0.1' },
    'user-pool-id': { type: 'string' },
    'client-id': { type: 'string' },
    group: { type: 'string', multiple: true },
    'key-dir': { type: 'string' },
  },
});

const running = await startLocalCognito({
  port: Number(values.port),
  host: values.host,
  ...(values['user-pool-id'] ? { userPoolId: values['user-pool-id'] } : {}),
  ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
  groups: values.group ?? [],
  keyDir: values['key-dir'] ?? null,
});
process.stdout.write(
  [
    `cognito-local listening on ${running.url}`,
    `  endpoint      ${running.endpoint}`,
    `  user pool id  ${running.userPoolId}`,
    `  client id     ${running.clientId}`,
    `  issuer        ${running.url}/${running.userPoolId}`,
    '  codes e-mailed to users are printed here.',
    '',
  ].join('\n'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
