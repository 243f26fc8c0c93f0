import { Scrub } from '@scrub/sdk';
import { applyLedgerEntry, type RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServiceForPage } from '../test/local-service';
import { Providers } from '../test/render';

/**
 * The data hooks against the real service, started in this process: the page's origin is the
 * service's (as when it serves the dashboard), and a new account signs in as a visitor would.
 */
let server: RunningServer;
const EMAIL = `hooks.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';

beforeAll(async () => {
  server = await startServiceForPage();
  const { scrub } = await import('../api/scrub-client');
  await scrub.auth.signUp({ email: EMAIL, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  await scrub.auth.signIn({ email: EMAIL, password: PASSWORD });
});

afterAll(async () => {
  await server?.close();
});

async function* nodeStream(text: string) {
  yield Buffer.from(text);
}

const wrapper = ({ children }: { children: React.ReactNode }) => <Providers>{children}</Providers>;

describe('the suppression hooks', () => {
  test('a number added or removed shows in the list and its count at once', async () => {
    const { useAddSuppressed, useRemoveSuppressed, useSuppressedNumbers, useSuppressionSummary } =
      await import('./suppression');
    const { result } = renderHook(
      () => ({
        summary: useSuppressionSummary(),
        numbers: useSuppressedNumbers({ page: 1, limit: 20 }),
        add: useAddSuppressed(),
        remove: useRemoveSuppressed(),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.numbers.data?.numbers).toEqual([]));
    expect(result.current.summary.data?.count).toBe(0);

    const added = await act(() =>
      result.current.add.mutateAsync(['(201) 555-0123', '+1 201 555 0124', 'not a number']),
    );
    expect(added.rejected).toHaveLength(1);
    // Read again by the mutation itself, before it resolved: no refetch asked for here.
    await waitFor(() => expect(result.current.numbers.data?.numbers).toHaveLength(2));
    expect(result.current.summary.data?.count).toBe(2);

    const first = result.current.numbers.data?.numbers[0]?.phone_number ?? '';
    await act(() => result.current.remove.mutateAsync([first]));
    await waitFor(() => expect(result.current.summary.data?.count).toBe(1));
    expect(result.current.numbers.data?.numbers.map((entry) => entry.phone_number)).not.toContain(first);
  });
});

describe('the files hooks', () => {
  test('a file stored meanwhile is listed once the list is refreshed, and read by its reference', async () => {
    const { refreshFiles, useFile, useFiles } = await import('./files');
    const { result } = renderHook(() => useFiles({ page: 1, limit: 10 }), { wrapper });
    await waitFor(() => expect(result.current.data?.files).toEqual([]));

    // Stored as a script would, on the same session: jsdom's XMLHttpRequest does not upload here, and
    // its typed arrays are not Node's, so the bytes go as a stream of Node's.
    const { tokenStorage } = await import('../api/scrub-client');
    const script = new Scrub({ baseURL: server.url, apiKey: null, tokenStorage, fetch: globalThis.fetch });
    const csv = 'Name,Phone,Line Type,DNC\nAnn,2012345678,mobile,0\nBob,2023334444,Landline,1\n';
    await script.files.uploadExisting(nodeStream(csv), {
      file_name: 'scrubbed.csv',
      phone_col: 1,
      line_type_col: 2,
      dnc_col: 3,
    });
    await act(() => refreshFiles());

    await waitFor(() => expect(result.current.data?.files).toHaveLength(1));
    const listed = result.current.data?.files ?? [];
    expect(listed.map((view) => [view.file_name, view.total_records])).toEqual([['scrubbed.csv', 2]]);

    const reference = listed[0]?.file_reference ?? '';
    const one = renderHook(() => useFile(reference), { wrapper });
    await waitFor(() => expect(one.result.current.data?.status).toBe('completed'));
  });
});

describe('the account hooks', () => {
  test('the balance is read again after a credit event', async () => {
    const { useAccount, useCredits } = await import('./account');
    const { creditEvent } = await import('../credits/credit-events');
    const { result } = renderHook(() => ({ account: useAccount(), credits: useCredits() }), { wrapper });
    await waitFor(() => expect(result.current.credits.data).toBeDefined());
    await waitFor(() => expect(result.current.account.data?.email).toBe(EMAIL));
    const before = Number(result.current.credits.data?.credits_remaining);

    const profile = await server.database.db
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    await applyLedgerEntry(server.database.db, { profileId: profile.id, delta: 500, kind: 'grant' });
    creditEvent();

    await waitFor(() => expect(Number(result.current.credits.data?.credits_remaining)).toBe(before + 500));
  });
});
