import { Readable } from 'node:stream';
import {
  type DncChange,
  type DncImportMode,
  type DncRejected,
  type DncSummary,
  routes,
} from '@scrub/contract';
import { ImportError, importDncCsv, parsePhone } from '@scrub/engine';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import type { RouteHandler } from '../http/route-registry.js';
import { startSuppressionImport, takeSuppressionImport } from '../suppression/suppression-imports.js';
import { INTERNAL_LIST } from '../suppression/suppression-lists.js';
import {
  addSuppressedNumbers,
  listSuppressedNumbers,
  removeSuppressedNumbers,
  replaceSuppressedNumbers,
  suppressedEntries,
  suppressionSummary,
} from '../suppression/suppression-store.js';

const e164 = (number: number) => `+1${String(number).padStart(10, '0')}`;

/** The numbers a person sent, read as checks read them: distinct numbers, and the ones unreadable by index. */
function readNumbers(inputs: readonly string[]): { numbers: number[]; rejected: DncRejected[] } {
  const numbers = new Set<number>();
  const rejected: DncRejected[] = [];
  inputs.forEach((input, index) => {
    const parsed = parsePhone(input);
    if (parsed.ok) numbers.add(parsed.number);
    else rejected.push({ index, input, reason: parsed.reason, message: parsed.message });
  });
  return { numbers: [...numbers], rejected };
}

/**
 * The account's own suppression list (internal DNC): add, remove, import (inline, or by upload for
 * a large file), list, export. Every
 * change is announced to every process, so the next check anywhere counts it.
 */
export function registerSuppression(context: ServerContext): void {
  const { registry, database } = context;
  const { db } = database;

  registry.add(routes.getDncSummary, async ({ principal }) => summaryOf(context, principal.profileId));

  registry.add(routes.addDncNumbers, async ({ principal, body }) => {
    const { numbers, rejected } = readNumbers(body.numbers);
    const added = numbers.length === 0 ? 0 : await addSuppressedNumbers(db, principal.profileId, numbers);
    return changeOf(context, principal.profileId, added, numbers.length - added, rejected);
  });

  registry.add(routes.removeDncNumbers, async ({ principal, body }) => {
    const { numbers, rejected } = readNumbers(body.numbers);
    const removed =
      numbers.length === 0 ? 0 : await removeSuppressedNumbers(db, principal.profileId, numbers);
    return changeOf(context, principal.profileId, removed, numbers.length - removed, rejected);
  });

  registry.add(routes.importDncList, importDncList(context));
  registerImportByUpload(context);
  registry.add(routes.listDncNumbers, listDncNumbers(context));
  registry.add(routes.exportDncList, exportDncList(context));
}

async function summaryOf({ database, referenceData }: ServerContext, profileId: string): Promise<DncSummary> {
  const { count, updatedAt } = await suppressionSummary(database.db, profileId);
  return {
    count,
    operator_count: referenceData.current().internal?.get(profileId)?.size ?? 0,
    updated_at: updatedAt?.toISOString() ?? null,
    list_name: INTERNAL_LIST,
  };
}

async function changeOf(
  context: ServerContext,
  profileId: string,
  changed: number,
  unchanged: number,
  rejected: DncRejected[],
  rejectedCount = rejected.length,
): Promise<DncChange> {
  if (changed > 0) await context.suppressionLists.changed(profileId);
  return {
    changed,
    unchanged,
    rejected,
    rejected_count: rejectedCount,
    summary: await summaryOf(context, profileId),
  };
}

/** How to read a suppression CSV: its phone column, whether it has a header row, merge or replace. */
interface ImportSettings {
  mode: DncImportMode;
  phoneCol: string | number;
  header: boolean | undefined;
}

/** Reads a suppression CSV (bytes or a stream) and merges it into the list or makes it the list. */
async function applyImport(
  context: ServerContext,
  profileId: string,
  csv: Buffer | Readable,
  settings: ImportSettings,
): Promise<DncChange> {
  const { db } = context.database;
  let imported: Awaited<ReturnType<typeof importDncCsv>>;
  try {
    imported = await importDncCsv(csv, {
      name: INTERNAL_LIST,
      column: settings.phoneCol,
      ...(settings.header === undefined ? {} : { header: settings.header }),
      // Bad rows are answered, not imported; a file of mostly bad rows is refused whole.
      mode: 'partial',
      source: 'The CSV',
    });
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError('validation_failed', error.message);
    throw error;
  }
  const { list, report } = imported;
  const rejected = report.problems.map(({ line, message }) => ({ index: line, message }));
  if (list.size === 0) {
    throw new ApiError(
      'validation_failed',
      report.rowsRead === 0
        ? 'The CSV has no rows after its header: nothing was changed.'
        : `No row of the CSV held a phone number that could be read (${report.problemCount} bad rows; the first: line ${rejected[0]?.index}: ${rejected[0]?.message}). Check the phone column: nothing was changed.`,
    );
  }
  const numbers = [...list.numbers()];
  if (settings.mode === 'replace') {
    const { added, removed } = await replaceSuppressedNumbers(db, profileId, numbers);
    return changeOf(
      context,
      profileId,
      added + removed,
      numbers.length - added,
      rejected,
      report.problemCount,
    );
  }
  const added = await addSuppressedNumbers(db, profileId, numbers);
  return changeOf(context, profileId, added, numbers.length - added, rejected, report.problemCount);
}

function importDncList(context: ServerContext): RouteHandler<typeof routes.importDncList> {
  return ({ principal, body }) =>
    // Bytes, never the string itself: the importer reads a string as a file's path.
    applyImport(context, principal.profileId, Buffer.from(body.csv_content, 'utf8'), {
      mode: body.mode,
      phoneCol: body.phone_col,
      header: body.header,
    });
}

/** A CSV too large to send inline: an upload URL first (the bulk files' grant), then the import. */
function registerImportByUpload(context: ServerContext): void {
  const { registry, database, blobStore, config } = context;
  registry.add(routes.createDncImport, ({ principal, body }) =>
    startSuppressionImport(database.db, blobStore, config, {
      profileId: principal.profileId,
      mode: body.mode,
      phoneCol: body.phone_col,
      header: body.header,
    }),
  );
  registry.add(routes.submitDncImport, async ({ principal, params }) => {
    const taken = await takeSuppressionImport(
      database.db,
      blobStore,
      config,
      principal.profileId,
      params.import_id,
    );
    try {
      const file = await blobStore.read(taken.upload_key);
      if (!file)
        throw new ApiError('conflict', 'The file has not been uploaded yet: PUT it to the upload_url first.');
      return await applyImport(context, principal.profileId, file, {
        mode: taken.mode,
        phoneCol: taken.phone_col,
        header: taken.header ?? undefined,
      });
    } finally {
      await blobStore.delete(taken.upload_key);
    }
  });
}

function listDncNumbers({ database }: ServerContext): RouteHandler<typeof routes.listDncNumbers> {
  return async ({ principal, query }) => {
    const digits = (query.search ?? '').replace(/\D/g, '');
    const { rows, total } = await listSuppressedNumbers(database.db, principal.profileId, {
      page: query.page,
      limit: query.limit,
      digits,
    });
    return {
      numbers: rows.map((row) => ({ phone_number: e164(row.number), added_at: row.addedAt.toISOString() })),
      page: query.page,
      total_pages: Math.max(1, Math.ceil(total / query.limit)),
      total_count: total,
    };
  };
}

function exportDncList({ database }: ServerContext): RouteHandler<typeof routes.exportDncList> {
  return async ({ principal, reply }) => {
    const profileId = principal.profileId;
    async function* csv() {
      yield 'phone_number,added_at\n';
      for await (const batch of suppressedEntries(database.db, profileId)) {
        yield batch.map((entry) => `${e164(entry.number)},${entry.addedAt.toISOString()}\n`).join('');
      }
    }
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="suppression-list.csv"');
    return Readable.from(csv());
  };
}
