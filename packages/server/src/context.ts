import type { IdentityPool } from '@scrub/cognito-local';
import type { ActAsTokens } from './auth/act-as-tokens.js';
import type { ApiKeyOwners } from './auth/api-key-owners.js';
import type { BlobStore } from './blob-store/blob-store.js';
import type { BulkServices } from './bulk/setup.js';
import type { CarrierLookups } from './carrier-lookup/carrier-lookups.js';
import type { AnswerCache } from './checks/answer-cache.js';
import type { CheckCharger } from './checks/check-charger.js';
import type { CheckLog } from './checks/check-log.js';
import type { ServerConfig } from './config/config.js';
import type { RouteRegistry } from './http/route-registry.js';
import type { Mailer } from './mail/mailer.js';
import type { PaymentServicesSetup } from './payments/setup.js';
import type { ProofSigner } from './proof/proof-signer.js';
import type { ReassignedChecks } from './reassigned/reassigned-checks.js';
import type { ReferenceData } from './reference-data/reference-data.js';
import type { DatabaseHandle } from './storage/database.js';
import type { SuppressionLists } from './suppression/suppression-lists.js';
import type { WebhookServices } from './webhooks/setup.js';

/** What route modules are given: settings, storage and the registry to add their routes to. */
export interface ServerContext {
  config: ServerConfig;
  database: DatabaseHandle;
  registry: RouteRegistry;
  /** The datasets checks answer from, swapped whole when an import lands. */
  referenceData: ReferenceData;
  /** Accounts' own suppression lists in memory, told of every change in any process. */
  suppressionLists: SuppressionLists;
  /** Who owns which API key; told to forget an account's keys when they change. */
  apiKeyOwners: ApiKeyOwners;
  /** Issues and verifies admins' act-as tokens. */
  actAsTokens: ActAsTokens;
  /** Charges single checks, many per transaction under load. */
  checkCharger: CheckCharger;
  /** The phone log's writer. */
  checkLog: CheckLog;
  /** Answers an account was given lately, reused for free. */
  answerCache: AnswerCache;
  /** Who answers reassigned-number questions (`consent_date`), and their price. */
  reassigned: ReassignedChecks;
  /** Live carrier lookups (`lookup=carrier`); null when the operator set none up. */
  carrierLookups: CarrierLookups | null;
  /** Where clients reach the service: SCRUB_PUBLIC_URL or http://localhost:<listening port>. */
  publicUrl: () => string;
  /** Sends (and always keeps) e-mail. */
  mailer: Mailer;
  /** The built-in user pool; null when an Amazon Cognito pool is configured. */
  identity: IdentityPool | null;
  /** Uploaded CSVs and result files: the data directory, or an S3 bucket. */
  blobStore: BlobStore;
  /** Where submitted bulk jobs go. */
  bulk: BulkServices;
  /** Job webhooks: the deliverer (and the test event's attempt). */
  webhooks: WebhookServices;
  /** Cards, purchases and subscriptions on Stripe or the built-in provider. */
  payments: PaymentServicesSetup;
  /** Signs proofs of scrub with the service's key. */
  proofSigner: ProofSigner;
}
