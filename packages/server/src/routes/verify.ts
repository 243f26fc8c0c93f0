import {
  type DncListDate,
  routes,
  type VerifyBatchItem,
  type VerifyProofStatement,
  type VerifyResult,
} from '@scrub/contract';
import {
  CallingClock,
  callingWindowOf,
  checkPhone,
  type DncSet,
  dataSourceOf,
  type LineType,
} from '@scrub/engine';
import type { Principal } from '../auth/principal.js';
import { withBatchLookups } from '../carrier-lookup/batch-lookups.js';
import { lookupAnswered, withCarrierLookup } from '../carrier-lookup/carrier-answer.js';
import { type CarrierLookups, carrierLookupsOrRefuse } from '../carrier-lookup/carrier-lookups.js';
import type { CachedAnswer, CheckAnswer } from '../checks/answer-cache.js';
import { type BatchBilling, billingOf } from '../checks/batch-billing.js';
import type { CheckCharge } from '../checks/check-charger.js';
import { checkLogRowOf } from '../checks/check-log.js';
import { TestChecks } from '../checks/test-checks.js';
import type { ServerContext } from '../context.js';
import type { RouteHandler } from '../http/route-registry.js';
import { checksAnswered } from '../metrics/service-metrics.js';
import { countedLists, listAnswers } from '../operator-lists/operator-lists.js';
import { ftcRegistryOf, validUntil } from '../proof/proof-signer.js';
import { addReassigned, REASSIGNED_REASON } from '../reassigned/reassigned-answers.js';
import { DAY_MS, listDates } from '../reference-data/dnc-age.js';
import { refusePausedChecks } from '../reference-data/dnc-readiness.js';
import { type ReferenceSnapshot, versionsOf } from '../reference-data/reference-data.js';
import { batchAsCsv, batchAsNdjson } from './verify-formats.js';

function answerFor(
  input: string,
  snapshot: ReferenceSnapshot,
  dnc: DncSet,
  versions: Record<string, string>,
  dataSource: CheckAnswer['data_source'],
  dates: ReadonlyMap<string, DncListDate>,
): CheckAnswer {
  // The shared lists and this account's own list: never another account's. The engine's rules are
  // the bulk scrub's: the same number answers the same in a file.
  const check = checkPhone(input, snapshot.exchange, { set: dnc });
  return {
    phone_number: check.e164 ?? input,
    line_type: check.lineType,
    line_type_source: check.lineTypeSource,
    ported: null,
    carrier_lookup: null,
    dnc: check.dnc ?? null,
    invalid_reason: check.invalidReason,
    invalid_message: check.message,
    extension: check.extension,
    dnc_sources: check.dncSources ?? [],
    dnc_lists_checked: check.dncListsChecked ?? [],
    dnc_lists: (check.dncListsCovering ?? []).map((name) => dates.get(name)!),
    data_source: dataSource,
    dataset_versions: versions,
  };
}

/**
 * A single check's answer, written out in the contract's order (the route writes it with
 * `JSON.stringify`, not through zod: the tests compare the two byte for byte). `proof` keeps its
 * place for `proof=1`, which fills it in.
 */
function withCharge(
  answer: CheckAnswer,
  cached: boolean,
  charge: CheckCharge,
  clock: CallingClock,
  lists: DncSet,
): VerifyResult {
  checksAnswered.inc({ line_type: answer.line_type, cached: cached ? 'true' : 'false' });
  // As of now, for a cached answer too: whether a number may be called changes by the minute.
  const window = callingWindowOf(
    answer.line_type === 'invalid' ? null : answer.phone_number,
    answer.line_type as LineType,
    clock,
  );
  return {
    phone_number: answer.phone_number,
    line_type: answer.line_type,
    line_type_source: answer.line_type_source,
    ported: answer.ported,
    carrier_lookup: answer.carrier_lookup,
    dnc: answer.dnc,
    cached,
    credits_deducted: charge.unlimited ? undefined : charge.deducted,
    credits_remaining: charge.unlimited ? undefined : charge.remaining,
    invalid_reason: answer.invalid_reason,
    invalid_message: answer.invalid_message,
    extension: answer.extension,
    dnc_sources: answer.dnc_sources,
    dnc_lists_checked: answer.dnc_lists_checked,
    dnc_lists: answer.dnc_lists,
    // Looked up now, not cached: which lists count may differ from one request to the next.
    lists: listAnswers(lists, answer.phone_number, answer.line_type !== 'invalid'),
    data_source: answer.data_source,
    dataset_versions: answer.dataset_versions,
    proof: undefined,
    timezones: window.timeZones as string[],
    // A number disconnected since the consent date is never callable on that consent.
    callable_now: answer.reassigned === true ? false : window.callableNow,
    callable_reason: answer.reassigned === true ? REASSIGNED_REASON : window.reason,
    reassigned: answer.reassigned,
    reassigned_source: answer.reassigned_source,
  };
}

/**
 * The calling clock of the current minute, shared by every check answered in it. Exact, not an
 * approximation: the time zones' offsets are whole minutes, so the local minute (all the calling
 * window depends on) changes only when the UTC minute does. Saves a time-zone look-up per request.
 */
function minuteClocks(): () => CallingClock {
  let minute = -1;
  let clock = new CallingClock();
  return () => {
    const now = Math.floor(Date.now() / 60_000);
    if (now !== minute) {
      minute = now;
      clock = new CallingClock(new Date(now * 60_000));
    }
    return clock;
  };
}

/**
 * A batch's reassigned-number answers: each new number asked once; a repeat in the batch shares
 * its first answer's, and a number the cache answered keeps the cached answer's.
 */
async function reassignedOfBatch(
  { reassigned, answerCache }: ServerContext,
  answers: CheckAnswer[],
  { first, billable, cached }: BatchBilling,
  profileId: string,
  generation: string,
  consentDate: string,
): Promise<void> {
  const fresh = billable.map((e164) => first.get(e164)!);
  await addReassigned(reassigned.provider, fresh, consentDate);
  const asked = new Set(fresh);
  for (const answer of answers) {
    if (asked.has(answer)) continue;
    const e164 = answer.phone_number;
    const from =
      answer.line_type === 'invalid'
        ? undefined
        : cached.has(e164)
          ? answerCache.get(profileId, generation, e164)?.answer
          : first.get(e164);
    answer.reassigned = from?.reassigned ?? null;
    answer.reassigned_source = from?.reassigned_source ?? null;
  }
}

/**
 * One answer of a batch: the single check's answer with the input as sent, added in place rather
 * than by a spread (a batch makes 10,000 of them). It comes last, as the contract has it.
 */
function batchItem(
  input: string,
  answer: CheckAnswer,
  cached: boolean,
  charge: CheckCharge,
  clock: CallingClock,
  lists: DncSet,
): VerifyBatchItem {
  return Object.assign(withCharge(answer, cached, charge, clock, lists), { input });
}

/**
 * GET /verify: one number, one credit. Invalid numbers are answered free (there is nothing to look
 * up); a repeat within the cache time is answered from the cache, free, and says `cached: true`.
 * POST /verify: up to 10,000 numbers, charged as those single checks would be, in one charge.
 */
export function registerVerify(context: ServerContext): void {
  const { registry } = context;
  registry.add(
    routes.verify,
    verify(context),
    // Built in the contract's order above; written as it is rather than checked by zod on every request.
    { serialize: (answer) => JSON.stringify(answer) },
  );
  registry.add(
    routes.verifyBatch,
    verifyBatch(context),
    // Up to 10,000 answers, built above field by field in the contract's order: written as they
    // are, not checked by zod one by one first (three times the cost of writing them). The test
    // compares the text with the contract's own serializer's for many answers.
    {
      serialize: (answer) => JSON.stringify(answer),
      formats: { 'text/csv': batchAsCsv, 'application/x-ndjson': batchAsNdjson },
    },
  );
}

/** Versions and data source of a snapshot, worked out once per snapshot rather than once per answer. */
const ofSnapshot = new WeakMap<
  ReferenceSnapshot,
  { shared: Record<string, string>; dataSource: CheckAnswer['data_source'] }
>();

const clockOfThisMinute = minuteClocks();

/**
 * One snapshot per request (a swap during it cannot mix versions), and the account's own list
 * from memory: a query only when it changed since this process read it.
 */
async function snapshotForChecks(
  { referenceData, config, suppressionLists, database }: ServerContext,
  profileId: string,
  askedLists: readonly string[] | undefined,
) {
  refusePausedChecks(referenceData, config.requireDnc);
  const snapshot = referenceData.current();
  // The operator lists that count: the request's, else the account's default. Unknown names: 400.
  const lists = await countedLists(database.db, snapshot, profileId, askedLists);
  const dnc = await suppressionLists.dncFor(snapshot, profileId);
  // Lists age by the day: an answer cached yesterday does not say today's ages (nor staleness).
  const now = referenceData.ageRule.now();
  const day = Math.floor(now.getTime() / DAY_MS);
  const generation = `${referenceData.ref.generation}.${day}.${dnc.version}`;
  const dates = new Map(
    listDates(dnc.set, now, referenceData.ageRule.maxAgeDays).map((date) => [date.list, date]),
  );
  let worked = ofSnapshot.get(snapshot);
  if (worked === undefined) {
    worked = { shared: versionsOf(snapshot), dataSource: dataSourceOf(snapshot) };
    ofSnapshot.set(snapshot, worked);
  }
  const { shared, dataSource } = worked;
  // An account with a list of its own answers from it too, and says which version.
  const versions = dnc.set === snapshot.dnc ? shared : { ...shared, 'dnc:internal': dnc.version };
  return { snapshot, generation, versions, dataSource, dnc: dnc.set, dates, checkedAt: now, lists };
}

/** `proof=1`: the answer, signed; charged nothing more than the answer itself. */
async function withProof(
  { proofSigner, referenceData }: ServerContext,
  result: VerifyResult,
  { profileId, email }: Principal,
): Promise<VerifyResult> {
  const checkedAt = referenceData.ageRule.now();
  const dncLists = result.dnc_lists ?? [];
  const registry = ftcRegistryOf(result.dataset_versions, referenceData.listDates());
  const { jws } = await proofSigner.sign<VerifyProofStatement>({
    type: 'scrub.verify',
    phone_number: result.phone_number,
    line_type: result.line_type,
    dnc: result.dnc,
    dnc_lists_checked: result.dnc_lists_checked,
    dnc_lists: dncLists,
    account: { id: profileId, email },
    datasets: result.dataset_versions,
    ftc_registry: registry,
    checked_at: checkedAt.toISOString(),
    valid_until: validUntil(checkedAt, registry),
  });
  return { ...result, proof: jws };
}

function verify(context: ServerContext): RouteHandler<typeof routes.verify> {
  const testChecks = new TestChecks(context.database.db);
  return async ({ query, principal }) => {
    const lookups = query.lookup === 'carrier' ? carrierLookupsOrRefuse(context.carrierLookups) : null;
    const result = await answerOne(context, query.p, principal.profileId, {
      consentDate: query.consent_date,
      lookups,
      lists: query.lists,
      // The API page's test check: free with an active subscription (seed 001).
      freeCheck: query.test === '1' && (await testChecks.isFree(principal.profileId)),
    });
    // Kept in the phone log off the answer's path (awaited only when the log's queue is full).
    const kind = query.test === '1' ? 'test' : 'single';
    await context.checkLog.record([checkLogRowOf(result, query.p, principal, kind, new Date())]);
    return query.proof === '1' || query.proof === 'true' ? withProof(context, result, principal) : result;
  };
}

/**
 * The cache's generation for a check, and what a new check costs before any carrier lookup: with
 * a consent date or a lookup, its answer is kept apart from the same number's without them (or with
 * another date), and a consent date costs more.
 */
function askedOf({ reassigned }: ServerContext, generation: string, { consentDate, lookups }: CheckExtras) {
  // Answers with a lookup are cached apart: a repeat without one does not get (nor pay for) it.
  const asked = lookups ? `${generation}.carrier` : generation;
  if (consentDate === undefined) return { generation: asked, cost: 1 };
  return { generation: `${asked}.consent:${consentDate}`, cost: 1 + reassigned.credits };
}

/**
 * What a check asks beyond the line type and DNC: a reassigned-number answer, a carrier lookup, the
 * operator lists to flag (the account's default when not given).
 */
interface CheckExtras {
  consentDate?: string | undefined;
  lookups: CarrierLookups | null;
  lists?: readonly string[] | undefined;
  /** The check's own credit is not charged (a free test check); a reassigned answer or lookup still is. */
  freeCheck?: boolean;
}

/**
 * A single check, and with `lookups` its carrier lookup: asked after the cache (a repeat is free)
 * and before the charge, which then takes the lookup's credits too when it answered.
 */
async function answerOne(
  context: ServerContext,
  p: string,
  profileId: string,
  extras: CheckExtras,
): Promise<VerifyResult> {
  const { checkCharger, answerCache } = context;
  const { consentDate, lookups } = extras;
  const checked = await snapshotForChecks(context, profileId, extras.lists);
  const { snapshot, versions, dataSource, dnc, dates, lists } = checked;
  const asked = askedOf(context, checked.generation, extras);
  const { generation } = asked;
  const cost = extras.freeCheck ? asked.cost - 1 : asked.cost;
  const clock = clockOfThisMinute();
  let answer = answerFor(p, snapshot, dnc, versions, dataSource, dates);
  if (answer.line_type === 'invalid') {
    if (consentDate !== undefined) await addReassigned(context.reassigned.provider, [answer], consentDate);
    const charge = await checkCharger.charge(profileId, 0, answer.phone_number);
    return withCharge(answer, false, charge, clock, lists);
  }

  const e164 = answer.phone_number;
  // A repeat waits for the first check's payment; if that was refused, the next waiter pays.
  for (let cached = answerCache.get(profileId, generation, e164); cached; ) {
    if (await cached.paid)
      return withCharge(cached.answer, true, await checkCharger.charge(profileId, 0, e164), clock, lists);
    const next = answerCache.get(profileId, generation, e164);
    cached = next === cached ? undefined : next;
  }
  // Claimed at once, in the turn that found it new: a concurrent repeat waits for this charge.
  let settlePaid: (paid: boolean) => void = () => {};
  const claimed: CachedAnswer = {
    answer,
    paid: new Promise((resolve) => {
      settlePaid = resolve;
    }),
  };
  answerCache.set(profileId, generation, e164, claimed);
  try {
    if (lookups) {
      await lookups.refuseUnaffordable(checkCharger, profileId, 1, e164);
      answer = withCarrierLookup(answer, await lookups.lookUp(e164));
      claimed.answer = answer;
    }
    // Asked before the charge: a provider that cannot answer fails the check, and nothing is charged.
    if (consentDate !== undefined) await addReassigned(context.reassigned.provider, [answer], consentDate);
    const lookupCredits = lookups && lookupAnswered(answer) ? lookups.credits : 0;
    const charge =
      lookupCredits > 0
        ? await checkCharger.chargeBatch(profileId, cost + lookupCredits, `${e164} with carrier lookup`)
        : await checkCharger.charge(profileId, cost, e164);
    settlePaid(true);
    return withCharge(answer, false, charge, clock, lists);
  } catch (error) {
    answerCache.delete(profileId, generation, e164, claimed);
    settlePaid(false);
    throw error;
  }
}

function verifyBatch(context: ServerContext): RouteHandler<typeof routes.verifyBatch> {
  const { checkCharger, answerCache } = context;
  return async ({ body, principal }) => {
    const { profileId } = principal;
    const lookups = body.lookup === 'carrier' ? carrierLookupsOrRefuse(context.carrierLookups) : null;
    const checked = await snapshotForChecks(context, profileId, body.lists);
    const { snapshot, versions, dataSource, dnc, dates, lists } = checked;
    const { phones, consent_date: consentDate } = body;
    const { generation, cost } = askedOf(context, checked.generation, { consentDate, lookups });
    const clock = clockOfThisMinute();
    let answers = phones.map((phone) => answerFor(phone, snapshot, dnc, versions, dataSource, dates));
    // Settles once this batch's charge has committed (true) or was refused (false).
    let settlePaid: (paid: boolean) => void = () => {};
    const paid = new Promise<boolean>((resolve) => {
      settlePaid = resolve;
    });
    const billing = await billingOf(answers, answerCache, profileId, generation, paid);
    const { first, billable, claimed, cached } = billing;
    // Each answered lookup costs the operator's price on top of its check.
    const lookupCredits = lookups?.credits ?? 0;
    const lookupCost = (answer: CheckAnswer) => (lookupAnswered(answer) ? lookupCredits : 0);
    let charge: CheckCharge;
    try {
      if (consentDate !== undefined) {
        await reassignedOfBatch(context, answers, billing, profileId, generation, consentDate);
      }
      if (lookups) {
        await lookups.refuseUnaffordable(
          checkCharger,
          profileId,
          billable.length,
          `batch of ${phones.length}`,
        );
        answers = await withBatchLookups(lookups, answers, first, billable, cached);
        // A concurrent repeat gets the answer with its lookup, as this batch does.
        billable.forEach((e164, i) => {
          claimed[i]!.answer = first.get(e164)!;
        });
      }
      const total = billable.reduce((sum, e164) => sum + cost + lookupCost(first.get(e164)!), 0);
      charge = await checkCharger.chargeBatch(profileId, total, `batch of ${phones.length}`);
      settlePaid(true);
    } catch (error) {
      // Nothing was charged: the claims go, and a check that waited for one pays for its number itself.
      billable.forEach((e164, i) => {
        answerCache.delete(profileId, generation, e164, claimed[i]);
      });
      settlePaid(false);
      throw error;
    }

    // Each number answered as its single check would be: the first of a new number costs 1 (and
    // its answered lookup's credits), a repeat in the batch or an answer from the cache 0
    // (`cached: true`), an invalid one 0.
    const free: CheckCharge = charge.unlimited ? charge : { ...charge, deducted: 0 };
    const paidOne = (answer: CheckAnswer): CheckCharge =>
      charge.unlimited ? charge : { ...charge, deducted: cost + lookupCost(answer) };
    const results = answers.map((answer, i) => {
      const valid = answer.line_type !== 'invalid';
      const fresh = valid && !cached.has(answer.phone_number) && first.get(answer.phone_number) === answer;
      return batchItem(phones[i]!, answer, valid && !fresh, fresh ? paidOne(answer) : free, clock, lists);
    });
    const now = new Date();
    await context.checkLog.record(
      results.map((item) => checkLogRowOf(item, item.input, principal, 'batch', now)),
    );
    if (charge.unlimited) return { results };
    return { results, credits_deducted: charge.deducted, credits_remaining: charge.remaining };
  };
}
