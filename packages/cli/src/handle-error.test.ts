import { Readable } from 'node:stream';
import {
  APIConnectionError,
  AuthenticationError,
  type BulkJob,
  BulkJobFailedError,
  InsufficientCreditsError,
  NotFoundError,
} from '@scrub/sdk';
import { describe, expect, it } from 'vitest';
import { refusingPrompter } from '../test/harness.js';
import { Context, type GlobalOptions } from './context.js';
import { FailOnMatchedError, UsageError } from './errors.js';
import { handleError } from './handle-error.js';
import { run } from './program.js';

function capture(options: GlobalOptions = { input: true }) {
  const output = { stdout: '', stderr: '' };
  const context = new Context(
    {
      stdout: { write: (chunk: string) => (output.stdout += chunk) },
      stderr: { write: (chunk: string) => (output.stderr += chunk) },
      stdin: Readable.from([]),
      env: {},
      prompter: refusingPrompter,
    },
    () => options,
    run,
  );
  return { context, output };
}

const envelope = (code: string, message: string) => ({
  error: { code, message, request_id: 'req-1' },
  message,
});

describe('handleError', () => {
  it.each([
    [
      'bad credentials',
      new AuthenticationError(401, envelope('invalid_api_key', 'Invalid API key'), new Headers()),
      3,
    ],
    [
      'too few credits',
      new InsufficientCreditsError(
        402,
        envelope('insufficient_credits', 'Not enough credits'),
        new Headers(),
      ),
      4,
    ],
    ['a --fail-on match', new FailOnMatchedError('3 numbers are on the DNC list'), 5],
    ['bad usage', new UsageError('unknown key "colour"'), 2],
    ['another API error', new NotFoundError(404, envelope('not_found', 'No such file'), new Headers()), 1],
    ['anything else', new Error('disk full'), 1],
  ])('maps %s to exit %i', async (_, error, exitCode) => {
    const { context, output } = capture();
    expect(await handleError(error, context)).toBe(exitCode);
    expect(output.stdout).toBe('');
    expect(output.stderr).toMatch(/^error: .+\n$/);
  });

  it('tells a signed-out user how to give a key, and quotes the request id', async () => {
    const { context, output } = capture();
    await handleError(
      new AuthenticationError(401, envelope('invalid_api_key', 'Invalid API key'), new Headers()),
      context,
    );
    expect(output.stderr).toContain('Invalid API key (request id req-1)');
    expect(output.stderr).toContain('SCRUB_API_KEY');
  });

  it('suggests starting the server when the API cannot be reached', async () => {
    const { context, output } = capture();
    const code = await handleError(
      new APIConnectionError('Could not reach http://localhost:9: connect ECONNREFUSED'),
      context,
    );
    expect(code).toBe(1);
    expect(output.stderr).toContain('Could not reach http://localhost:9');
    expect(output.stderr).toContain('pnpm start');
    expect(output.stderr).toContain('--api-url');
  });

  it('writes {"error":{"code","message"}} to stderr with --json', async () => {
    const { context, output } = capture({ input: true, json: true });
    await handleError(new FailOnMatchedError('3 numbers are on the DNC list'), context);
    expect(JSON.parse(output.stderr)).toEqual({
      error: { code: 'fail_on_matched', message: '3 numbers are on the DNC list' },
    });
  });

  it('reports a failed bulk job with its error, exit 1', async () => {
    const { context, output } = capture({ input: true, json: true });
    const job = {
      job_id: 'job_1',
      status: 'failed',
      error: 'The file is not UTF-8 or UTF-16 text',
    } as BulkJob;

    expect(await handleError(new BulkJobFailedError(job), context)).toBe(1);
    expect(JSON.parse(output.stderr)).toEqual({
      error: { code: 'job_failed', message: 'Bulk job job_1 failed: The file is not UTF-8 or UTF-16 text' },
    });
  });
});
