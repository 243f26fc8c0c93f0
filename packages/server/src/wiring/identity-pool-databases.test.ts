import { CognitoError, IdentityPool, MailBox } from '@scrub/cognito-local';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';

/**
 * The built-in user pool (`@scrub/cognito-local`) on the server's own database, PGlite and
 * PostgreSQL: its tables come from the server's migration 0002, and its throttles count in them.
 * The pool's whole behaviour is tested in its package on PGlite; these are the promises
 * docs/security.md makes on both databases.
 */
const CLIENT = 'testclient0000000000000000';
const PASSWORD = 'Pool-Password-1';
const WRONG = 'Wrong-Password-1';

describe.each(testDatabases())('the built-in user pool on $kind', (database: TestDatabase) => {
  let handle: DatabaseHandle;
  let pool: IdentityPool;
  let clock: Date;
  const mailer = new MailBox();
  const later = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    handle = await database.open();
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle?.close());
  beforeEach(async () => {
    clock = new Date();
    pool = await IdentityPool.create({
      db: handle.db,
      mailer,
      logger: false,
      userPoolId: 'us-east-1_testpool',
      clientId: CLIENT,
      publicUrl: () => 'http://scrub.test',
      tokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 30 * 86_400,
      keyDir: null,
      now: () => clock,
    });
  });

  const signIn = (email: string, password: string, address = '198.51.100.7') =>
    pool.initiateAuth(
      {
        ClientId: CLIENT,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      },
      { address },
    );
  const refusal = async (action: Promise<unknown>) => {
    try {
      await action;
    } catch (error) {
      if (error instanceof CognitoError) return error.message;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it('five wrong passwords make sign-in wait 30 s, then it doubles; another address is not locked out', async () => {
    const email = `pat.${database.kind}@example.com`;
    await pool.admin.adminCreateUser({ email, password: PASSWORD });
    for (let i = 0; i < 5; i++) await refusal(signIn(email, WRONG));
    expect(await refusal(signIn(email, PASSWORD))).toBe('Password attempts exceeded');
    // The owner, from elsewhere, still signs in.
    expect(await signIn(email, PASSWORD, '203.0.113.9')).toHaveProperty('AuthenticationResult');
    later(31);
    expect(await refusal(signIn(email, WRONG))).toBe('Incorrect username or password.');
    later(31);
    // The sixth failure doubled the wait to 60 s: 31 s later it still holds.
    expect(await refusal(signIn(email, PASSWORD))).toBe('Password attempts exceeded');
    later(30);
    expect(await signIn(email, PASSWORD)).toHaveProperty('AuthenticationResult');
  });

  it('takes at most 20 sign-ups an hour from one address', async () => {
    const address = '192.0.2.44';
    const signUp = (n: number) =>
      pool.signUp(
        { ClientId: CLIENT, Username: `new${n}.${database.kind}@example.com`, Password: PASSWORD },
        { address },
      );
    for (let n = 0; n < 20; n++) await signUp(n);
    expect(await refusal(signUp(20))).toBe('Attempt limit exceeded, please try after some time.');
    later(3601);
    await signUp(21);
  });
});
