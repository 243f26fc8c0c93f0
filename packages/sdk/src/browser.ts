// The browser entry: no Node built-in anywhere in its module graph (browser-entry.test.ts). The
// Node entry, index.ts, is this and uploads from a file path.
export type {
  AccountLists,
  Address,
  AdminUserInfo,
  AmountOption,
  ApiKeyRotation,
  AuditEntry,
  BulkJob,
  BulkJobQuote,
  CheckLogEntry,
  CheckLogFilter,
  CheckLogPage,
  CheckSource,
  ClientConfig,
  ContactChallenge,
  ContactMessage,
  CreateBulkJob,
  CreatedBulkJob,
  CreatedDncImport,
  CreateWebhookEndpoint,
  CreditHistoryEntry,
  CreditHistoryFilter,
  CreditHistoryPage,
  CreditSnapshot,
  DncChange,
  DncEntry,
  DncImportMode,
  DncListDate,
  DncListsStatus,
  DncNumberList,
  DncRejected,
  DncSummary,
  ErrorCode,
  ErrorEnvelope,
  FieldIssue,
  FileList,
  FileListQuery,
  FileProof,
  FileProofStatement,
  FileView,
  GiveBackReason,
  Health,
  JobCredits,
  JobStatus,
  LineType,
  ManagedUser,
  Message,
  OperatorList,
  OperatorListAnswer,
  PaymentMethod,
  PaymentSetupRequest,
  Plan,
  PlanList,
  PlanStatus,
  PlanType,
  ProofKeySet,
  ProofStatement,
  Purchase,
  PurchaseHistoryQuery,
  PurchaseRequest,
  PurchaseResult,
  RoleName,
  RotatedWebhookSecret,
  RotateWebhookSecret,
  Subscription,
  SubscriptionStatus,
  UpdateUser,
  UserInfo,
  UserPlan,
  UserType,
  VerifyProofStatement,
  VerifyQuery,
  VerifyResult,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEvent,
  WebhookEventType,
} from '@scrub/contract';
/** The optional columns a bulk job can map, as the dashboard's wizard offers them. */
export {
  DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS,
  MAX_DNC_NUMBERS_PER_CALL,
  MAX_INLINE_CSV_CHARS,
  mappableFields,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
} from '@scrub/contract';
export { type AuthOperation, authMessages } from './auth/auth-errors.js';
export { type AuthenticatorSetup, mfaMessages, type SecondFactor } from './auth/mfa-sign-in.js';
export { MemoryTokenStorage, type TokenStorage } from './auth/token-storage.js';
export { type ClientOptions, type RequestInput, type RequestOptions, Scrub } from './client.js';
export { type NumberedPage, numberedPage } from './core/numbered-page.js';
export type { Page, PagePromise } from './core/pagination.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthError,
  AuthenticationError,
  AuthenticationRequiredError,
  AuthLimitExceededError,
  BadRequestError,
  BulkJobFailedError,
  CardDeclinedError,
  ConflictError,
  ExpiredCodeError,
  IdempotencyKeyReusedError,
  IdentityNotConfiguredError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidPasswordError,
  NotFoundError,
  NotSignedInError,
  PayloadTooLargeError,
  PaymentMethodRequiredError,
  PermissionDeniedError,
  PlanPausedError,
  RateLimitError,
  ScrubError,
  SessionExpiredError,
  UnprocessableEntityError,
  UserNotConfirmedError,
  UserNotFoundError,
  UsernameExistsError,
  WebhookSignatureError,
} from './errors.js';
export {
  type ProofFailure,
  type ProofFile,
  ProofVerificationError,
  type VerifiedProof,
  type VerifyProofOptions,
  verifyProof,
} from './proof.js';
export { Account, Credits, User } from './resources/account.js';
export {
  type ActAsToken,
  Admin,
  AdminAudit,
  type AdminCreateUserParams,
  type AdminUpdateUserParams,
  type AdminUserListParams,
  type AdminUserPage,
  AdminUsers,
  type AuditPage,
} from './resources/admin.js';
export { ApiKey } from './resources/api-key.js';
export {
  Auth,
  type AuthSession,
  type CodeDelivery,
  type SignUpParams,
  type SignUpResult,
} from './resources/auth.js';
export { AuthenticatorApp } from './resources/authenticator-app.js';
export {
  Bulk,
  type BulkJobCreateParams,
  type BulkStream,
  type BulkStreamParams,
  type RunOptions,
  type UploadOptions,
  type UploadSource,
  type WaitOptions,
} from './resources/bulk.js';
export { Cards, Payments } from './resources/cards.js';
export { type CheckExportParams, type CheckListParams, type CheckPage, Checks } from './resources/checks.js';
export type {
  CreditHistoryExportParams,
  CreditHistoryPageOf,
  CreditHistoryParams,
} from './resources/credits.js';
export {
  type DownloadOptions,
  type ExistingFileParams,
  type FileListParams,
  FilePage,
  Files,
  type UploadExistingOptions,
} from './resources/files.js';
export { Plans } from './resources/plans.js';
export { Purchases, type WaitForConfirmationOptions } from './resources/purchases.js';
export { Subscriptions } from './resources/subscriptions.js';
export {
  Dnc,
  type DncCsvSource,
  type DncImportParams,
  type DncListParams,
  type DncPage,
  Suppression,
  type SuppressionCsvSource,
  type SuppressionImportParams,
  type SuppressionListParams,
  type SuppressionPage,
} from './resources/suppression.js';
export type {
  Verify,
  VerifyBatchOptions,
  VerifyManyOptions,
  VerifyOptions,
  VerifyOutcome,
} from './resources/verify.js';
export { type WebhookDeliveryPage, Webhooks } from './resources/webhooks.js';
export { VERSION } from './version.js';
export { type VerifyWebhookOptions, verifyWebhookSignature } from './webhook-signature.js';
