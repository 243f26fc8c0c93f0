import type { BulkJob, FileView, JobCredits, OutputColumn } from '@scrub/contract';
import { fileExpiresAt } from './file-removal.js';
import type { JobRow } from './job-store.js';
import { cleanFilterNotice } from './result-filter.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The job as the job API answers it; with `credits` (the ledger's figures, account/job-credits.ts) when read. */
export function bulkJobOf(row: JobRow, publicUrl: string, credits?: JobCredits): BulkJob {
  const files = `${publicUrl}/files/${row.file_reference}`;
  return {
    job_id: row.id,
    filename: row.file_name,
    status: row.status,
    created_at: row.created_at.toISOString(),
    completed_at: iso(row.completed_at),
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    duplicates: row.duplicates,
    // A streamed job cut off part-way keeps the result of the rows it scrubbed (and charged).
    result_url: row.result_key !== null ? `${files}/result` : null,
    // A streamed job cut off part-way (failed, with a result) did not keep the part of the file that arrived.
    uploaded_file:
      row.status === 'awaiting_upload' || (row.status === 'failed' && row.result_key !== null)
        ? null
        : `${files}/upload`,
    file_reference: row.file_reference,
    credits_charged: row.credits_charged,
    credits_reversed: row.credits_reversed,
    ...(credits === undefined ? {} : { credits }),
    line_types: row.line_types,
    dnc_status: row.dnc_status,
    file_message: row.file_message,
    error: row.error,
    columns: (row.output_columns ?? []) as OutputColumn[],
    columns_evaluated_at: row.output_columns?.includes('callable_now') ? iso(row.columns_evaluated_at) : null,
    dnc_lists: row.dnc_lists,
    lists: row.lists ?? [],
    consent_col: row.consent_col,
    credits_per_record: row.record_price,
    reassigned_source: row.reassigned_source,
    lookup: row.lookup,
    carrier_lookups: row.carrier_lookups,
    line_type_sources: row.line_type_sources,
    mapped_headers: row.mapped_headers,
  };
}

/**
 * The job as the export and file pages show it, with when its upload and result are deleted
 * (`retentionDays` after it was created), or when and why they were; with `credits` (the ledger's
 * figures) when read.
 */
export function fileViewOf(
  row: JobRow,
  publicUrl: string,
  retentionDays: number,
  credits?: JobCredits,
): FileView {
  const job = bulkJobOf(row, publicUrl);
  // Uploaded files were not checked here: their DNC column is the customer's own.
  const notice = row.file_method === 'upload' ? null : cleanFilterNotice(row.dnc_status);
  return {
    file_reference: row.file_reference,
    file_name: row.file_name,
    file_url: row.status === 'failed' ? 'Failed' : job.result_url,
    last_updated: row.updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
    status:
      row.status === 'completed' || row.status === 'failed' || row.status === 'processing'
        ? row.status
        : 'pending',
    total_records: row.total_rows ?? 0,
    processed_rows: row.processed_rows,
    duplicates: row.duplicates,
    credits_reversed: row.credits_reversed,
    credits_charged: row.credits_charged,
    ...(credits === undefined ? {} : { credits }),
    file_method: row.file_method,
    uploaded_file: job.uploaded_file,
    line_types: row.line_types,
    dnc_status: row.dnc_status,
    file_message: row.file_message,
    error: row.status === 'failed' ? row.error : null,
    // A failed job keeps a result only when it was cut off part-way after scrubbing some records.
    part_url: row.status === 'failed' ? job.result_url : null,
    ...(notice === null ? {} : { dnc_notice: notice }),
    columns_evaluated_at: job.columns_evaluated_at,
    expires_at: row.files_removed_at === null ? fileExpiresAt(row, retentionDays).toISOString() : null,
    removed_at: iso(row.files_removed_at),
    removed_by: row.files_removed_by,
  };
}
