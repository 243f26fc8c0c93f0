import type { FileProofStatement } from '@scrub/contract';
import type { JobRow } from '../bulk/job-store.js';
import { ApiError } from '../errors/api-error.js';
import { ftcRegistryOf, type UnsignedStatement, validUntil } from './proof-signer.js';

/**
 * What a completed job's proof states, from what the worker recorded as it scrubbed. Jobs with
 * nothing recorded get a 409 naming why: the service signs only what it saw happen (hashing the
 * stored files now could not say which data answered them).
 */
export function fileStatement(
  job: JobRow,
  account: { id: string; email: string | null },
): UnsignedStatement<FileProofStatement> {
  if (job.status !== 'completed') {
    throw new ApiError(
      'conflict',
      job.status === 'failed'
        ? job.result_key === null
          ? 'This job failed: nothing was scrubbed, so there is nothing to prove.'
          : 'This job stopped part-way: its result holds only the first rows of the file, so no proof of the file is signed.'
        : `This job is ${job.status.replace('_', ' ')}: its proof is ready once it has completed.`,
    );
  }
  if (job.file_method === 'upload') {
    throw new ApiError(
      'conflict',
      'This file was scrubbed elsewhere and uploaded as it was (Upload Existing Files): this service did not check it, so it cannot sign a proof of it.',
    );
  }
  const { upload_sha256, result_sha256, numbers_checked, dataset_versions, completed_at } = job;
  if (
    upload_sha256 === null ||
    result_sha256 === null ||
    numbers_checked === null ||
    dataset_versions === null ||
    completed_at === null
  ) {
    throw new ApiError(
      'conflict',
      'This job was scrubbed before proofs of scrub were recorded: the data it was checked against is not known. Scrub the file again to get a proof.',
    );
  }
  const registry = ftcRegistryOf(dataset_versions, job.dnc_lists);
  const dnc = job.dnc_status;
  return {
    type: 'scrub.file',
    job_id: job.id,
    file_reference: job.file_reference,
    file_name: job.file_name,
    input: { sha256: upload_sha256, rows: job.total_rows ?? 0 },
    result: { sha256: result_sha256 },
    numbers_checked,
    duplicates: job.duplicates,
    line_types: job.line_types,
    dnc_status: { clean: dnc.clean ?? 0, dnc: dnc.dnc ?? 0, unchecked: dnc.unchecked ?? 0 },
    account,
    datasets: dataset_versions,
    ftc_registry: registry,
    checked_at: completed_at.toISOString(),
    valid_until: validUntil(completed_at, registry),
    ...(job.dnc_lists === null ? {} : { dnc_lists: job.dnc_lists }),
    ...restsOn(job),
  };
}

/**
 * What else the job's answers rest on, each named only when the job used it: the operator lists
 * its result flags (with versions and dates), the reassigned-number source of its consent column,
 * what its line types rest on, and its carrier lookups' provider. Older jobs recorded none of it.
 */
function restsOn(job: JobRow): Partial<FileProofStatement> {
  return {
    ...(job.operator_lists === null || job.operator_lists.length === 0
      ? {}
      : { operator_lists: job.operator_lists }),
    ...(job.consent_col === null ? {} : { reassigned_source: job.reassigned_source }),
    ...(job.line_type_sources === null ? {} : { line_type_sources: job.line_type_sources }),
    ...(job.carrier_lookups === null ? {} : { carrier_lookups: job.carrier_lookups }),
  };
}
