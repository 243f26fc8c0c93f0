// Over 500 lines, kept whole: one interface per table, read together as the database's one map.
import type { IdentityTables } from '@scrub/cognito-local';
import type { CarrierLookupCounts, DncListDate, ProofOperatorList, ReassignedSource } from '@scrub/contract';
import type { ColumnType, Generated } from 'kysely';

/** The tables, as Kysely sees them. Each migration that adds a table adds its interface here. */
export interface PlansTable {
  plan_reference: string;
  plan_name: string;
  plan_subtitle: string;
  plan_type: 'prepaid' | 'postpaid' | 'intro';
  plan_amount: number;
  percent_off: number;
  plan_credits: number | null;
  plan_credits_text: string;
  bonus_credits: number;
  interval: 'month' | null;
  unlimited: boolean;
  amount_options: ColumnType<AmountOptionRow[], string, string>;
  sort_order: number;
  active: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface AmountOptionRow {
  amount: number;
  credits: number | null;
  percent_off: number;
  unlimited_days: number | null;
}

export type RoleNameColumn = 'User' | 'Agency' | 'Admin' | 'Super Admin';
export type SubscriptionStatusColumn = 'none' | 'active' | 'paused' | 'past_due' | 'canceled';
export type LedgerKind =
  | 'grant'
  | 'purchase'
  | 'bonus'
  | 'subscription_grant'
  | 'refund'
  | 'check'
  | 'bulk_charge'
  | 'reversal'
  | 'adjustment';

/** Why a reversal gave credits back (migration 0030-ledger-reasons); null on every other kind. */
export type ReversalReason =
  | 'duplicates'
  | 'invalid'
  | 'unanswered_lookups'
  | 'failed_or_cut'
  | 'unspecified';

export interface ProfilesTable {
  id: Generated<string>;
  sub: string;
  email: string;
  user_name: Generated<string>;
  role: Generated<RoleNameColumn>;
  plan_reference: string | null;
  plan_status: Generated<'active' | 'paused'>;
  /** When a time-limited plan (the unlimited pass) ends; null for plans that do not end by themselves. */
  plan_expires_at: Date | null;
  subscription_status: Generated<SubscriptionStatusColumn>;
  address: ColumnType<Record<string, string>, string | undefined, string>;
  purchase_settings: ColumnType<
    { scrubs_amount: number; is_scrub_enabled: boolean },
    string | undefined,
    string
  >;
  /** Cached balance: only the ledger writes it, in the transaction that adds the entry. */
  credits: ColumnType<number, never, number>;
  /** Set while an admin has disabled the account: its key and tokens are refused. */
  disabled_at: ColumnType<Date | null, never, Date | null>;
  /** Tokens issued before this instant are refused (a password reset, a global sign-out, a disable). */
  tokens_valid_after: ColumnType<Date | null, never, Date | null>;
  last_sign_in_at: ColumnType<Date | null, never, Date | null>;
  /** The payment provider's customer (migration 0008-payments). */
  payment_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's subscription while the account has one. */
  subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Agency whose client this User account is (migration 0011-agency-clients). */
  agency_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The operator lists the account counts by default, by name (migration 0020-operator-lists). */
  lists: ColumnType<string[], string | undefined, string>;
  /** A deleted account (migration 0032): its e-mail and name are a tombstone, its data gone. */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: Generated<string>;
  profile_id: string;
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  key_hash: string;
  last4: string;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  profile_id: string;
  delta: number;
  balance_after: number;
  kind: LedgerKind;
  reference: string | null;
  note: string | null;
  /** Set on reversals only. */
  reason: ReversalReason | null;
  created_at: Generated<Date>;
}

/** Requests counted per bucket and window, by every process (migration 0010-rate-limits). */
export interface RateLimitWindowsTable {
  bucket: string;
  window_start: Date;
  hits: number;
  expires_at: Date;
}

/** Every e-mail sent (migration 0003-mail-outbox). */
export interface MailOutboxTable {
  id: Generated<number>;
  kind: string;
  to_address: string;
  from_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  delivery: 'stored' | 'sending' | 'sent' | 'failed';
  delivery_error: string | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
}

export type BulkJobStatus = 'awaiting_upload' | 'queued' | 'processing' | 'completed' | 'failed';
type Json<T> = ColumnType<T, string | undefined, string>;

/** Bulk jobs and their queue (migration 0005-bulk-jobs). */
export interface BulkJobsTable {
  id: Generated<string>;
  profile_id: string;
  /** Unguessable: the public file page is reached by it alone. */
  file_reference: string;
  file_name: string;
  file_method: 'api' | 'upload';
  /** The phone column by header text or zero-based position. */
  phone_col: Json<string | number>;
  header_row: boolean;
  mapping: Json<Record<string, string | number>>;
  /** Optional result columns asked for (migration 0011-job-columns). */
  output_columns: Json<string[]>;
  /** When the result's `callable_now` cells were evaluated: the scrub's start. */
  columns_evaluated_at: Date | null;
  status: BulkJobStatus;
  upload_key: string;
  upload_expires_at: Date | null;
  result_key: string | null;
  total_rows: number | null;
  processed_rows: Generated<number>;
  duplicates: Generated<number>;
  credits_charged: Generated<number>;
  credits_reversed: Generated<number>;
  line_types: Json<Record<string, number>>;
  dnc_status: Json<Record<string, number>>;
  file_message: string | null;
  error: string | null;
  attempts: Generated<number>;
  worker_id: string | null;
  heartbeat_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  submitted_at: Date | null;
  completed_at: Date | null;
  /** Recorded by the worker for a proof of scrub (migration 0014); null before it, and for imported files. */
  upload_sha256: string | null;
  result_sha256: string | null;
  /** Distinct valid numbers the job looked up. */
  numbers_checked: number | null;
  /** Every dataset version the job answered from, by name. */
  dataset_versions: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** Each DNC list the job answered from, with its date, when scrubbed (migration 0018); null before it. */
  dnc_lists: ColumnType<DncListDate[] | null, string | null | undefined, string | null>;
  /** The operator lists the job flags, one result column each (migration 0020); null before it. */
  lists: ColumnType<string[] | null, string | null | undefined, string | null>;
  /** The consent-date column (header text or zero-based position) (migration 0021); null: none asked. */
  consent_col: ColumnType<string | number | null, string | null | undefined, string | null>;
  /** Credits one record costs, fixed when the job was made: 1, more with a consent column. */
  record_price: Generated<number>;
  /** Who answered the Reassigned column and as of when, once the job ran; null when nothing could. */
  reassigned_source: ColumnType<ReassignedSource | null, string | null | undefined, string | null>;
  /** `carrier` when the job asks carrier lookups (migration 0023); null: none. */
  lookup: ColumnType<'carrier' | null, 'carrier' | null | undefined, 'carrier' | null>;
  /** Credits one answered lookup costs, fixed when the job was made (part of `record_price`). */
  lookup_price: Generated<number>;
  /** Whether the result names the mapped columns with the standard headers (migration 0034). */
  mapped_headers: Generated<boolean>;
  /** Its lookups once it ran: the provider, how many answered and not; null otherwise. */
  carrier_lookups: ColumnType<CarrierLookupCounts | null, string | null | undefined, string | null>;
  /** Rows with a valid number by line-type source, once it ran; null before (and for older jobs). */
  line_type_sources: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  /** The operator lists the result flags, with versions and dates, once it ran; null before. */
  operator_lists: ColumnType<ProofOperatorList[] | null, string | null | undefined, string | null>;
  /** When the upload and result left the file store, and why (migration 0032); null while kept. */
  files_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  files_removed_by: ColumnType<FileRemovedBy | null, FileRemovedBy | null | undefined, FileRemovedBy | null>;
}

/** Why a file's upload and result were removed: its age, its owner, or its account's deletion. */
export type FileRemovedBy = 'retention' | 'customer' | 'account';

/** Warnings sent to admins before a DNC list goes stale, once per list version (migration 0018). */
export interface DncAgeAlertsTable {
  list: string;
  version: string;
  days_before: number;
  sent_at: Date;
}

/** The registry inbox's files, one per content, claimed before import (migration 0022). */
export interface RegistryInboxFilesTable {
  sha256: string;
  /** The file's name in the inbox. */
  name: string;
  state: 'importing' | 'imported' | 'rejected';
  claimed_at: Date;
  finished_at: Date | null;
  /** Imported: the dataset and version it became. */
  dataset: string | null;
  version: string | null;
  /** The FTC subscription account number recorded with it. */
  ftc_account: string | null;
  /** Rejected: why. */
  reason: string | null;
}

/** Carrier lookups' answers, reused for 30 days (migration 0019); failed lookups are not kept. */
export interface CarrierLookupsTable {
  phone_number: string;
  provider: string;
  /** The provider's own type (`mobile`, `fixedVoip`...); null when it gave none. */
  provider_type: string | null;
  carrier_name: string | null;
  mobile_country_code: string | null;
  mobile_network_code: string | null;
  looked_up_at: Date;
}

/** A bulk job's file sent in parts (migration 0029-resumable-uploads). */
export interface ResumableUploadTable {
  id: string;
  job_id: string;
  upload_key: string;
  /** The store's id for the upload: an S3 multipart upload's, or the local store's parts folder. */
  store_upload_id: string;
  size: ColumnType<number, number, never>;
  part_size: number;
  created_at: Date;
  expires_at: Date;
  completed_at: Date | null;
}

/** The phone log (migration 0028-check-log): one row a single check. */
export interface CheckLogTable {
  id: Generated<number>;
  profile_id: string;
  checked_at: Date;
  /** The number as sent. */
  input: string;
  /** E.164 when valid, else the input. */
  phone_number: string;
  line_type: string;
  dnc: boolean | null;
  cached: boolean;
  credits: number;
  /** `single` (GET /verify), `batch` (a number of POST /verify), `test` (the API page's test check). */
  kind: 'single' | 'batch' | 'test';
  via: 'token' | 'api_key' | 'act_as';
  api_key_id: string | null;
  /** The admin acting as the account, when one did. */
  actor_profile_id: string | null;
  /** The answer's other fields (reasons, lists, sources, data) as JSON text, null and empty ones left out. */
  answer: string;
}

/** An account's auto top-up and low-balance settings, and whether each is armed (migration 0031). */
export interface BalanceWatchesTable {
  profile_id: string;
  top_up_enabled: Generated<boolean>;
  /** Below this many credits the default card is charged for the chosen pack. */
  top_up_threshold: Generated<number>;
  top_up_plan_reference: string | null;
  /** What is paid for a variable pack; null: the pack's own price. */
  top_up_amount_cents: number | null;
  /** False from a crossing's claim until the balance is back at the threshold. */
  top_up_armed: Generated<boolean>;
  /** The newest ledger entry when the last crossing was claimed: a later one at the threshold re-arms. */
  top_up_claimed_entry: string | number | null;
  /** Why auto top-up stopped (a declined card), until the customer sets it again. */
  top_up_stopped_reason: string | null;
  top_up_stopped_at: Date | null;
  /** Below this many credits the customer is e-mailed once; null: no e-mail. */
  low_balance_threshold: number | null;
  low_balance_armed: Generated<boolean>;
  low_balance_claimed_entry: string | number | null;
  updated_at: Generated<Date>;
}

/** One auto top-up attempt (migration 0031). */
export interface AutoTopUpsTable {
  id: Generated<string>;
  profile_id: string;
  status: 'pending' | 'succeeded' | 'declined' | 'failed';
  plan_reference: string;
  amount_cents: number;
  balance_before: number;
  purchase_id: string | null;
  credits_added: number | null;
  message: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

/** Admin actions and act-as requests (migration 0007-admin); append-only. */
export interface AuditLogTable {
  id: Generated<string>;
  at: Generated<Date>;
  actor_id: string | null;
  actor_email: string;
  subject_id: string | null;
  subject_email: string | null;
  action: string;
  detail: Json<Record<string, unknown>>;
  request_id: string | null;
}

export interface ServiceSecretsTable {
  name: string;
  secret: string;
  created_at: Generated<Date>;
}

/** One row per purchase, keyed by the provider object that paid it (migration 0008-payments). */
export interface PurchasesTable {
  id: Generated<string>;
  profile_id: string;
  kind: 'intro' | 'purchase' | 'subscription';
  plan_reference: string;
  plan_name: string;
  amount_cents: number;
  credits: number;
  bonus_credits: Generated<number>;
  provider_object_id: string;
  refunded_cents: Generated<number>;
  created_at: Generated<Date>;
}

/** One refund of a purchase (migration 0012-refunds). */
export interface RefundsTable {
  id: Generated<string>;
  purchase_id: string;
  provider_refund_id: string;
  amount_cents: number;
  reason: string;
  admin_id: string | null;
  admin_email: string | null;
  credits_due: number;
  credits_taken: number;
  credits_shortfall: number;
  created_at: Generated<Date>;
}

/** A single-use link for a browser without a session (migration 0012-refunds). */
export interface PaymentLinksTable {
  token_hash: string;
  profile_id: string;
  purpose: 'add_card' | 'authenticate';
  payment_intent_id: string | null;
  expires_at: Date;
  used_at: Date | null;
  /** Set while a save with this card link runs (0026). */
  claimed_at: Generated<Date | null>;
  created_at: Generated<Date>;
}

export interface PaymentWebhookEventsTable {
  event_id: string;
  type: string;
  received_at: Generated<Date>;
}

/** Answers to requests that carried an `Idempotency-Key` (migration 0009-idempotency-keys). */
export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response_body: string | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

export interface WebhookEndpointsTable {
  id: string;
  profile_id: string;
  url: string;
  events: ColumnType<string[], string, string>;
  description: string;
  secret: string;
  created_at: Generated<Date>;
  /** The secret `secret` replaced, still signing until `previous_secret_expires_at` (migration 0024). */
  previous_secret: Generated<string | null>;
  previous_secret_expires_at: Generated<Date | null>;
}

export interface WebhookEventsTable {
  id: string;
  profile_id: string;
  type: string;
  body: string;
  created_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  give_up_at: Date;
  created_at: Generated<Date>;
  ended_at: Date | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  response_ms: number | null;
  error: string | null;
}

/** A suppression import waiting for its uploaded file (migration 0024-suppression-imports). */
export interface SuppressionImportsTable {
  id: string;
  profile_id: string;
  mode: 'merge' | 'replace';
  phone_col: ColumnType<string | number, string, string>;
  header: boolean | null;
  upload_key: string;
  upload_expires_at: Date;
  created_at: Generated<Date>;
}

/** An account's own suppression list: its version, bumped on every change (migration 0013). */
export interface SuppressionListsTable {
  profile_id: string;
  version: Generated<number>;
  updated_at: Generated<Date>;
}

/** One number of an account's suppression list, as ten digits in an integer (migration 0013). */
export interface SuppressionNumbersTable {
  profile_id: string;
  number: number;
  added_at: Generated<Date>;
}

/** The built-in user pool's tables (@scrub/cognito-local, migration 0002-identity) are among them. */
export interface Database extends IdentityTables {
  audit_log: AuditLogTable;
  service_secrets: ServiceSecretsTable;
  purchases: PurchasesTable;
  refunds: RefundsTable;
  payment_links: PaymentLinksTable;
  payment_webhook_events: PaymentWebhookEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  bulk_jobs: BulkJobsTable;
  plans: PlansTable;
  profiles: ProfilesTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  mail_outbox: MailOutboxTable;
  rate_limit_windows: RateLimitWindowsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  suppression_lists: SuppressionListsTable;
  suppression_numbers: SuppressionNumbersTable;
  suppression_imports: SuppressionImportsTable;
  dnc_age_alerts: DncAgeAlertsTable;
  carrier_lookups: CarrierLookupsTable;
  check_log: CheckLogTable;
  resumable_uploads: ResumableUploadTable;
  registry_inbox_files: RegistryInboxFilesTable;
  balance_watches: BalanceWatchesTable;
  auto_top_ups: AutoTopUpsTable;
}
