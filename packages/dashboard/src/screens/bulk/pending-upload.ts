/**
 * A bulk job whose file was being uploaded when the page went away (a reload, a closed tab), kept
 * in localStorage from the job's creation until its submit (or cancel) so the wizard can offer to
 * finish it. The File itself cannot be kept: the customer picks it again, and its name, size and
 * modification time must match. An unsubmitted job is never charged, and the service removes it
 * after SCRUB_UNSUBMITTED_JOB_TTL_SECONDS.
 */
export interface PendingUpload {
  jobId: string;
  uploadUrl: string;
  /** The upload in parts under way, once started: resuming it sends only the parts still missing. */
  uploadId?: string;
  fileName: string;
  size: number;
  lastModified: number;
}

const KEY = 'scrub.pendingUpload';

export function readPendingUpload(): PendingUpload | null {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as PendingUpload | null;
    return value && typeof value.jobId === 'string' && typeof value.uploadUrl === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function savePendingUpload(jobId: string, uploadUrl: string, file: File, uploadId?: string): void {
  const pending: PendingUpload = {
    jobId,
    uploadUrl,
    ...(uploadId ? { uploadId } : {}),
    fileName: file.name,
    size: file.size,
    lastModified: file.lastModified,
  };
  window.localStorage.setItem(KEY, JSON.stringify(pending));
}

export function clearPendingUpload(): void {
  window.localStorage.removeItem(KEY);
}

/** Why `file` is not the one the pending upload was for, or null when it is. */
export function mismatch(pending: PendingUpload, file: File): string | null {
  if (
    file.name === pending.fileName &&
    file.size === pending.size &&
    file.lastModified === pending.lastModified
  )
    return null;
  return `This is not the same file: choose ${pending.fileName} (${pending.size.toLocaleString('en-US')} bytes, last modified ${new Date(pending.lastModified).toLocaleString('en-US')}).`;
}
