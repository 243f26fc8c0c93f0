import type { Context } from './context.js';
import { NotSignedInError, signInHint } from './errors.js';

/** The client with the credentials in use (see `Context.credentials`); exit 3 when there are none. */
export async function requireCredentials(context: Context) {
  const credentials = await context.credentials();
  if (credentials.source === 'none') {
    throw new NotSignedInError(`Not signed in (profile "${await context.profileName()}"). ${signInHint}`);
  }
  return credentials;
}
