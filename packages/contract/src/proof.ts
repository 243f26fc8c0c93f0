import { z } from 'zod';
import { CarrierLookupCountsSchema, LineTypeSourceCountsSchema } from './line-type-source.js';
import { ReassignedSourceSchema } from './reassigned.js';
import { DncListDateSchema } from './verify.js';

/** Where the service publishes the public keys its proofs are signed with (a JWKS). */
export const PROOF_KEYS_PATH = '/.well-known/scrub-proof-keys.json';

/** The JWS header's `typ`: a proof of scrub, not a session token. */
export const PROOF_JWS_TYPE = 'scrub-proof+jws';

/**
 * The FTC's Telemarketing Sales Rule (16 CFR 310.4(b)(3)(iv)): a seller must use a version of the
 * registry obtained no more than 31 days before the call. A statement is relied on until this many
 * days after the earlier of its check and the registry version's release date.
 */
export const FTC_REGISTRY_MAX_AGE_DAYS = 31;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (SHA-256)');

/** The federal registry version a statement was checked against: its name and its release date. */
export const FtcRegistrySchema = z.object({
  version: z.string(),
  /**
   * `YYYY-MM-DD`, the release date the operator recorded at import; null when none was recorded
   * (then nothing is valid until any date). Statements of jobs from before release dates were
   * recorded take the version's name when it is a date.
   */
  release_date: z.string().nullable(),
});
export type FtcRegistry = z.infer<typeof FtcRegistrySchema>;

const StatementBase = z.object({
  /** Who signed: the service's public URL. */
  iss: z.string(),
  /** The signing key's id in the JWKS (also in the JWS header). */
  kid: z.string(),
  /** Signed at, seconds since 1970 (JWT's `iat`). */
  iat: z.number().int(),
  account: z.object({ id: z.string(), email: z.string().nullable() }),
  /** Every dataset version the answers came from (`exchange`, `nanpa_npa`, `dnc:federal`, `dnc:state:TX`...). */
  datasets: z.record(z.string(), z.string()),
  /** Null: the federal registry was not loaded, and no number was checked against it. */
  ftc_registry: FtcRegistrySchema.nullable(),
  checked_at: z.string(),
  /**
   * The last moment the statement may be relied on for federal do-not-call purposes: the earlier of
   * `checked_at` and the registry's release date, plus 31 days. Null when there is no registry
   * release date to count from.
   */
  valid_until: z.string().nullable(),
  /**
   * Each do-not-call list the answers rest on, with its release date, age and whether it was stale
   * (past the service's maximum age) when checked: a stale list's silence made no number clean.
   * Absent from statements of answers from before list dates were recorded.
   */
  dnc_lists: z.array(DncListDateSchema).optional(),
});

/** An operator list a job's answers rest on, as its proof names it. */
export const ProofOperatorListSchema = z.object({
  name: z.string(),
  version: z.string(),
  released_on: z.string().nullable(),
});
export type ProofOperatorList = z.infer<typeof ProofOperatorListSchema>;

/** What a proof of a completed bulk job states. */
export const FileProofStatementSchema = StatementBase.extend({
  type: z.literal('scrub.file'),
  job_id: z.string(),
  file_reference: z.string(),
  file_name: z.string(),
  /** The file as uploaded: its SHA-256 and its data rows. */
  input: z.object({ sha256: Sha256Hex, rows: z.number().int().nonnegative() }),
  /** The result file as stored (unfiltered download): its SHA-256. */
  result: z.object({ sha256: Sha256Hex }),
  /** Distinct valid numbers looked up. */
  numbers_checked: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  /** Rows by line type. */
  line_types: z.record(z.string(), z.number().int().nonnegative()),
  /** Rows by DNC answer: `clean`, `dnc`, `unchecked` (no loaded list covers the number). */
  dnc_status: z.record(z.string(), z.number().int().nonnegative()),
  /**
   * The operator lists the result flags (`List: <name>` columns), each with the version and release
   * date it was checked against. Absent when the job flagged none, and from older statements.
   */
  operator_lists: z.array(ProofOperatorListSchema).optional(),
  /**
   * Who answered the `Reassigned` column and the day its data is complete to; null when a consent
   * column was asked and nothing could answer (every cell empty). Absent without a consent column.
   */
  reassigned_source: ReassignedSourceSchema.nullable().optional(),
  /** Rows with a valid number by what their line type rests on (`exchange`, `carrier_lookup`...). Absent from older statements. */
  line_type_sources: LineTypeSourceCountsSchema.optional(),
  /** With carrier lookups: the provider, and how many distinct numbers it gave a line type or not. */
  carrier_lookups: CarrierLookupCountsSchema.optional(),
});
export type FileProofStatement = z.infer<typeof FileProofStatementSchema>;

/** What a proof of one `/verify` answer states. */
export const VerifyProofStatementSchema = StatementBase.extend({
  type: z.literal('scrub.verify'),
  phone_number: z.string(),
  line_type: z.string(),
  dnc: z.union([z.literal(0), z.literal(1), z.null()]),
  dnc_lists_checked: z.array(z.string()),
});
export type VerifyProofStatement = z.infer<typeof VerifyProofStatementSchema>;

export const ProofStatementSchema = z.discriminatedUnion('type', [
  FileProofStatementSchema,
  VerifyProofStatementSchema,
]);
export type ProofStatement = z.infer<typeof ProofStatementSchema>;

/** `GET /files/{file_reference}/proof`: the signed statement, and what it says, for reading. */
export const FileProofSchema = z
  .object({
    /** The statement signed: a compact JWS (EdDSA, Ed25519), to keep and hand to anyone. */
    jws: z.string(),
    statement: FileProofStatementSchema,
    /** Where the public keys are. */
    keys_url: z.string(),
  })
  .meta({ id: 'FileProof' });
export type FileProof = z.infer<typeof FileProofSchema>;

/** One public key (OKP, Ed25519) as a JWK. */
export const ProofKeySchema = z
  .object({
    kty: z.string(),
    crv: z.string().optional(),
    x: z.string().optional(),
    kid: z.string(),
    alg: z.string().optional(),
    use: z.string().optional(),
  })
  .loose();

/** The JWKS at PROOF_KEYS_PATH: the current key first, then the retired ones old proofs were signed with. */
export const ProofKeySetSchema = z.object({ keys: z.array(ProofKeySchema) }).meta({ id: 'ProofKeySet' });
export type ProofKeySet = z.infer<typeof ProofKeySetSchema>;
