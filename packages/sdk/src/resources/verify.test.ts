import type { VerifyResult } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import {
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InsufficientCreditsError,
} from '../errors.js';
import type { VerifyOutcome } from './verify.js';

const BASE = 'http://scrub.test';
const KEY = 'scrub_test_key';

function answer(p: string, fields: Partial<VerifyResult> = {}): VerifyResult {
  const digits = p.replace(/\D/g, '');
  return {
    phone_number: `+1${digits.slice(-10)}`,
    line_type: 'mobile',
    dnc: 0,
    cached: false,
    credits_deducted: 1,
    credits_remaining: 99,
    invalid_reason: null,
    invalid_message: null,
    extension: null,
    dnc_sources: [],
    dnc_lists_checked: ['federal'],
    data_source: 'sample',
    timezones: ['America/New_York'],
    callable_now: true,
    callable_reason: null,
    dataset_versions: { nanpa_npa: '2025-11-26' },
    ...fields,
  };
}

const noCredits = {
  error: { code: 'insufficient_credits', message: 'Not enough credits: this needs 1 and the account has 0.' },
  message: 'Not enough credits: this needs 1 and the account has 0.',
  credits_required: 1,
  credits_available: 0,
};

const client = () => new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const numbers = (count: number) =>
  Array.from({ length: count }, (_, i) => `20155501${String(i).padStart(2, '0')}`);
/** nock 15 hands reply functions the fetch Request. */
const queryP = (request: Request) => new URL(request.url).searchParams.get('p') ?? '';

async function collect(run: AsyncIterable<VerifyOutcome>): Promise<VerifyOutcome[]> {
  const outcomes: VerifyOutcome[] = [];
  for await (const outcome of run) outcomes.push(outcome);
  return outcomes;
}

/**
 * Answers every batch (`POST /verify`), holding each reply for the longest `delay(p)` of its
 * numbers, and records the numbers asked for, each batch's size and how many were in flight at
 * once. A batch holding a number `reply` refuses is refused whole, as the server does.
 */
function verifyServer(
  delay: (p: string) => number,
  reply: (p: string) => [number, object] = (p) => [200, answer(p)],
) {
  const stats = { inFlight: 0, maxInFlight: 0, requested: [] as string[], batches: [] as number[] };
  nock(BASE)
    .persist()
    .post('/verify')
    .reply(async (request: Request) => {
      const { phones } = (await request.json()) as { phones: string[] };
      stats.requested.push(...phones);
      stats.batches.push(phones.length);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await sleep(Math.max(...phones.map(delay)));
      stats.inFlight--;
      const replies = phones.map(reply);
      const refused = replies.find(([status]) => status !== 200);
      if (refused) return refused;
      return [200, { results: phones.map((p, i) => ({ input: p, ...replies[i]![1] })) }];
    });
  return stats;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('verify(phone)', () => {
  it('sends the number as p, as typed, with the API key in x-api-key', async () => {
    const typed = '+1 (201) 555-0123 x45';
    const scope = nock(BASE)
      .matchHeader('x-api-key', KEY)
      .get('/verify')
      .query((query) => query.p === typed && !('k' in query))
      .reply(200, answer('2015550123'));

    const result: VerifyResult = await client().verify(typed);

    expect(result).toMatchObject({ phone_number: '+12015550123', line_type: 'mobile', dnc: 0 });
    scope.done();
  });

  it('asks for a reassigned-number answer with consentDate, in a single check and a batch', async () => {
    const reassigned = {
      reassigned: true,
      reassigned_source: { provider: 'imported_disconnects', as_of: '2024-06-30' },
    };
    const scope = nock(BASE)
      .get('/verify')
      .query({ p: '2015550123', consent_date: '2024-02-01' })
      .reply(200, answer('2015550123', { ...reassigned, callable_now: false }))
      .post('/verify', { phones: ['2015550123'], consent_date: '2024-02-01' })
      .reply(200, { results: [{ ...answer('2015550123', reassigned), input: '2015550123' }] });

    expect(await client().verify('2015550123', { consentDate: '2024-02-01' })).toMatchObject({
      reassigned: true,
      callable_now: false,
    });
    const batch = await client().verify.batch(['2015550123'], { consentDate: '2024-02-01' });
    expect(batch.results[0]).toMatchObject(reassigned);
    scope.done();
  });

  it('marks the API page’s test check with test: true (test=1), free with an active subscription', async () => {
    const scope = nock(BASE)
      .get('/verify')
      .query({ p: '2015550123', test: '1' })
      .reply(200, answer('2015550123', { credits_deducted: 0 }));
    expect(await client().verify('2015550123', { test: true })).toMatchObject({ credits_deducted: 0 });
    scope.done();
  });

  it('asks a carrier lookup with lookup: carrier, and reads where the line type came from', async () => {
    const looked = answer('2015550123', {
      line_type: 'voip',
      line_type_source: 'carrier_lookup',
      ported: true,
      carrier_lookup: {
        status: 'answered',
        provider: 'twilio',
        provider_type: 'nonFixedVoip',
        carrier_name: 'Bandwidth',
        looked_up_at: '2026-11-27T12:00:00.000Z',
        message: null,
      },
      credits_deducted: 2,
    });
    const scope = nock(BASE).get('/verify').query({ p: '2015550123', lookup: 'carrier' }).reply(200, looked);
    const batch = nock(BASE)
      .post('/verify', { phones: ['2015550123'], lookup: 'carrier' })
      .reply(200, { results: [{ input: '2015550123', ...looked }] });

    const result = await client().verify('2015550123', { lookup: 'carrier' });
    expect(result).toMatchObject({ line_type_source: 'carrier_lookup', ported: true });
    expect(result.carrier_lookup?.carrier_name).toBe('Bandwidth');
    expect((await client().verify.batch(['2015550123'], { lookup: 'carrier' })).results[0]).toMatchObject({
      line_type_source: 'carrier_lookup',
    });
    scope.done();
    batch.done();
  });

  it('encodes characters that mean something in a URL', async () => {
    let rawQuery = '';
    const scope = nock(BASE)
      .get('/verify')
      .query(true)
      .reply((request: Request) => {
        rawQuery = new URL(request.url).search;
        return [200, answer('2015550123')];
      });

    await client().verify('201&k=x#5+5');

    expect(rawQuery).toBe('?p=201%26k%3Dx%235%2B5');
    scope.done();
  });

  it('answers an unreadable number as a result, not an error', async () => {
    const invalid = answer('12345', {
      phone_number: '12345',
      line_type: 'invalid',
      invalid_reason: 'too_short',
      invalid_message: 'Too few digits for a US number',
      credits_deducted: 0,
    });
    const scope = nock(BASE).get('/verify').query({ p: '12345' }).reply(200, invalid);

    await expect(client().verify('12345')).resolves.toEqual(invalid);
    scope.done();
  });

  it('throws InsufficientCreditsError with the numbers of a 402, without retrying it', async () => {
    const scope = nock(BASE).get('/verify').query(true).once().reply(402, noCredits);

    const error = await new Scrub({ baseURL: BASE, apiKey: KEY }).verify('2015550123').catch((e) => e);

    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({
      status: 402,
      code: 'insufficient_credits',
      creditsRequired: 1,
      creditsAvailable: 0,
    });
    scope.done();
  });
});

describe('verify.many(phones)', () => {
  it('keeps input order whatever order the answers come back in', async () => {
    const input = numbers(12);
    // Later numbers answer sooner, so completion order is the reverse of input order.
    verifyServer((p) => 60 - input.indexOf(p) * 5);

    const outcomes = await collect(client().verify.many(input, { concurrency: 4, batchSize: 1 }));

    expect(outcomes.map((outcome) => outcome.input)).toEqual(input);
    expect(outcomes.map((outcome) => outcome.result?.phone_number)).toEqual(input.map((p) => `+1${p}`));
  });

  it('never has more than `concurrency` checks in flight, and uses all of them', async () => {
    const stats = verifyServer(() => 50);

    await collect(client().verify.many(numbers(20), { concurrency: 3, batchSize: 1 }));

    expect(stats.requested).toHaveLength(20);
    expect(stats.maxInFlight).toBe(3);
  });

  it('defaults to batches of 1,000 numbers, 4 at a time', async () => {
    const stats = verifyServer(() => 50);
    const input = Array.from({ length: 5_500 }, (_, i) => `201${String(2_000_000 + i)}`);

    const outcomes = await collect(client().verify.many(input));

    expect(stats.batches).toEqual([1000, 1000, 1000, 1000, 1000, 500]);
    expect(stats.maxInFlight).toBe(4);
    expect(outcomes.map((outcome) => outcome.input)).toEqual(input);
  });

  it('reads the input only as checks finish, and closes it when the loop ends early', async () => {
    verifyServer(() => 5);
    let pulled = 0;
    let closed = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield `201555${String(i).padStart(4, '0')}`;
        }
      } finally {
        closed = true;
      }
    }

    const seen: string[] = [];
    for await (const outcome of client().verify.many(endless(), { concurrency: 4, batchSize: 1 })) {
      seen.push(outcome.input);
      if (seen.length === 10) break;
    }

    expect(seen).toHaveLength(10);
    // The 10 yielded, plus at most a full window behind them.
    expect(pulled).toBeLessThanOrEqual(14);
    expect(closed).toBe(true);
  });

  it('takes a plain iterable, such as a Set', async () => {
    verifyServer(() => 0);

    const outcomes = await collect(client().verify.many(new Set(['2015550100', '2015550101'])));

    expect(outcomes.map((outcome) => outcome.input)).toEqual(['2015550100', '2015550101']);
  });

  it('yields a per-number error in its place and goes on', async () => {
    const tooLong = '2'.repeat(65);
    verifyServer(
      () => 0,
      (p) =>
        p === tooLong
          ? [400, { error: { code: 'validation_failed', message: 'p is longer than any phone number' } }]
          : [200, answer(p)],
    );

    // The batch holding it is refused whole; its numbers are then checked one by one.
    const singles: string[] = [];
    nock(BASE)
      .persist()
      .get('/verify')
      .query(true)
      .reply((request: Request) => {
        const p = queryP(request);
        singles.push(p);
        return p === tooLong
          ? [400, { error: { code: 'validation_failed', message: 'p is longer than any phone number' } }]
          : [200, answer(p)];
      });

    const outcomes = await collect(client().verify.many(['2015550100', tooLong, '2015550101']));

    expect(singles).toEqual(['2015550100', tooLong, '2015550101']);

    expect(outcomes.map((outcome) => outcome.input)).toEqual(['2015550100', tooLong, '2015550101']);
    expect(outcomes[1]?.error).toBeInstanceOf(BadRequestError);
    expect(outcomes[0]?.result?.line_type).toBe('mobile');
    expect(outcomes[2]?.result?.line_type).toBe('mobile');
  });

  it('stops at a 402: yields what was answered, starts nothing new, then throws', async () => {
    const input = numbers(20);
    // Two credits: the first two numbers answered, every later one refused.
    const stats = verifyServer(
      (p) => (p === input[0] ? 30 : 5),
      (p) => (input.indexOf(p) < 2 ? [200, answer(p)] : [402, noCredits]),
    );

    const outcomes: VerifyOutcome[] = [];
    const error = await (async () => {
      for await (const outcome of client().verify.many(input, { concurrency: 4, batchSize: 1 }))
        outcomes.push(outcome);
    })().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ creditsRequired: 1, creditsAvailable: 0 });
    // The answers paid for are all there, in order; the refused numbers are not yielded.
    expect(outcomes.map((outcome) => outcome.input)).toEqual(input.slice(0, 2));
    // The first window, and none after the refusal was seen.
    expect(stats.requested.length).toBeLessThanOrEqual(4 + 3);
    expect(stats.requested.length).toBeLessThan(input.length);
  });

  it('stops at refused credentials too: every later check would be refused', async () => {
    const stats = verifyServer(
      () => 0,
      () => [401, { error: { code: 'invalid_api_key', message: 'Invalid API key' } }],
    );

    await expect(
      collect(client().verify.many(numbers(50), { concurrency: 2, batchSize: 1 })),
    ).rejects.toBeInstanceOf(AuthenticationError);
    expect(stats.requested.length).toBeLessThanOrEqual(4);
  });

  it('stops when the signal aborts: checks in flight are cancelled', async () => {
    const stats = verifyServer((p) => (p.endsWith('00') ? 0 : 10_000));
    const controller = new AbortController();

    const outcomes: VerifyOutcome[] = [];
    const run = (async () => {
      for await (const outcome of client().verify.many(numbers(10), {
        concurrency: 3,
        batchSize: 1,
        signal: controller.signal,
      })) {
        outcomes.push(outcome);
        controller.abort();
      }
    })();

    const started = Date.now();
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcomes.map((outcome) => outcome.input)).toEqual(['2015550100']);
    expect(stats.requested.length).toBeLessThanOrEqual(4);
  });

  it('throws at once for an aborted signal, a bad concurrency or a single string', async () => {
    const aborted = AbortSignal.abort();
    await expect(collect(client().verify.many(['2015550100'], { signal: aborted }))).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    await expect(collect(client().verify.many(['2015550100'], { concurrency: 0 }))).rejects.toThrow(
      'concurrency must be a whole number of at least 1',
    );
    await expect(collect(client().verify.many(['2015550100'], { batchSize: 10_001 }))).rejects.toThrow(
      'batchSize must be a whole number from 1 to 10000',
    );
    await expect(collect(client().verify.many('2015550100'))).rejects.toThrow(TypeError);
  });
});

describe('verify.batch(phones)', () => {
  it('sends the numbers in one POST, as written, and answers them in order', async () => {
    const stats = verifyServer(() => 0);
    const phones = ['(201) 555-0100', 'not a number', '201.555.0101'];

    const { results } = await client().verify.batch(phones);

    expect(stats.batches).toEqual([3]);
    expect(stats.requested).toEqual(phones);
    expect(results.map((result) => result.input)).toEqual(phones);
  });

  it('sends more than 10,000 numbers as requests of 10,000, adding up the credits', async () => {
    let remaining = 30_000;
    nock(BASE)
      .persist()
      .post('/verify')
      .reply(async (request: Request) => {
        const { phones } = (await request.json()) as { phones: string[] };
        remaining -= phones.length;
        return [
          200,
          {
            results: phones.map((p) => ({ input: p, ...answer(p) })),
            credits_deducted: phones.length,
            credits_remaining: remaining,
          },
        ];
      });
    const phones = Array.from({ length: 12_345 }, (_, i) => `201${String(3_000_000 + i)}`);

    const answered = await client().verify.batch(phones);

    expect(answered.results).toHaveLength(12_345);
    expect(answered.results[10_000]?.input).toBe(phones[10_000]);
    expect(answered).toMatchObject({ credits_deducted: 12_345, credits_remaining: 30_000 - 12_345 });
  });

  it('throws InsufficientCreditsError saying how many numbers the balance could pay for', async () => {
    nock(BASE)
      .post('/verify')
      .reply(402, {
        ...noCredits,
        message: 'Not enough credits: this batch needs 3 and the account has 2, enough for 2 of its numbers.',
        credits_required: 3,
        credits_available: 2,
        affordable: 2,
        required: 3,
      });

    const error = await client()
      .verify.batch(['2015550100', '2015550101', '2015550102'])
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ affordable: 2, creditsRequired: 3, creditsAvailable: 2 });
  });
});

describe('verify.many() under a rate limit', () => {
  it('waits as long as Retry-After asks and checks the refused numbers again: every number is answered', async () => {
    let refusals = 0;
    const refused = new Set<string>();
    const stats = verifyServer(
      () => 0,
      (p) => {
        // Every third request is refused once, as a server at its limit would.
        if (refusals < 4 && Number(p.slice(-2)) % 3 === 0 && !refused.has(p)) {
          refused.add(p);
          refusals++;
          return [
            429,
            { error: { code: 'rate_limited', message: 'Too many requests' } },
            { 'retry-after': '0' },
          ] as never;
        }
        return [200, answer(p)];
      },
    );
    const outcomes = await collect(client().verify.many(numbers(10), { concurrency: 3, batchSize: 1 }));
    expect(outcomes.map((o) => o.error)).toEqual(Array(10).fill(undefined));
    expect(outcomes.map((o) => o.input)).toEqual(numbers(10));
    expect(refusals).toBe(4);
    expect(stats.requested.length).toBe(14);
  });
});
