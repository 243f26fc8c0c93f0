import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../src/config/config.js';
import type { Database } from '../src/storage/schema.js';

/** A password the built-in pool's default policy accepts. */
export const TEST_PASSWORD = 'Correct-Horse-7';

async function identityCall(app: FastifyInstance, operation: string, payload: object) {
  const res = await app.inject({
    method: 'POST',
    url: '/identity',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    payload: JSON.stringify(payload),
  });
  if (res.statusCode !== 200) throw new Error(`${operation} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** Signs in to the app's built-in pool with a password; answers the ID token. */
export async function poolSignIn(
  app: FastifyInstance,
  config: ServerConfig,
  email: string,
  password = TEST_PASSWORD,
) {
  const answer = await identityCall(app, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: config.localIdentity.clientId,
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  return answer.AuthenticationResult.IdToken as string;
}

/** Signs up and confirms (the code read from the outbox), as a person would; answers the ID token. */
export async function poolSignUp(
  app: FastifyInstance,
  db: Kysely<Database>,
  config: ServerConfig,
  email: string,
): Promise<string> {
  await poolRegister(app, db, config, email);
  return poolSignIn(app, config, email);
}

/** Signs up and confirms (the code read from the outbox), without signing in. */
export async function poolRegister(
  app: FastifyInstance,
  db: Kysely<Database>,
  config: ServerConfig,
  email: string,
): Promise<void> {
  const ClientId = config.localIdentity.clientId;
  await identityCall(app, 'SignUp', { ClientId, Username: email, Password: TEST_PASSWORD });
  const mail = await db
    .selectFrom('mail_outbox')
    .select('subject')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = /(\d{6})$/.exec(mail.subject)?.[1];
  await identityCall(app, 'ConfirmSignUp', { ClientId, Username: email, ConfirmationCode: code });
}
