export type { CodeMail, CodeMailer, CodePurpose } from './code-mail.js';
export { CognitoError, type CognitoErrorType } from './errors.js';
export type { HostDatabase } from './host-database.js';
export {
  type AuthenticationResult,
  type CodeDeliveryDetails,
  IdentityPool,
  type IdentityPoolOptions,
  type InitiateAuthResult,
  type PoolTuning,
  TokenRejected,
  type VerificationMaterial,
  type VerifiedToken,
  verifyIdentityToken,
} from './identity-pool.js';
export { MailBox } from './mail-box.js';
export { defaultPasswordPolicy, type PasswordPolicy } from './passwords.js';
export { defaultTuning, type FailureLimit } from './pool-context.js';
export {
  type HostRefusal,
  IDENTITY_PATH,
  type IdentityProtocolOptions,
  jwksPath,
  registerIdentityProtocol,
  supportedOperations,
} from './protocol.js';
export { createIdentityTables, dropIdentityTables, type IdentityTables } from './schema.js';
export type { MfaRequirement, MfaSubject } from './sign-in.js';
export {
  type RunningLocalCognito,
  type StartLocalCognitoOptions,
  startLocalCognito,
} from './start-local-cognito.js';
