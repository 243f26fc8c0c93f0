import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';
import { ResultFilterOptionsSchema } from '../result-filters.js';

describe('--line-type and --dnc', () => {
  it('read a comma-separated list of line types, any case; all keeps every row', () => {
    expect(ResultFilterOptionsSchema.parse({ lineType: 'Mobile, landline', dnc: '0' })).toEqual({
      lineType: ['mobile', 'landline'],
      dnc: '0',
    });
    expect(ResultFilterOptionsSchema.parse({ lineType: 'mobile,all' })).toEqual({ lineType: undefined });
  });
});

describe('scrub export: usage', () => {
  const env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: 'http://127.0.0.1:9' };

  it.each([
    [
      ['--upload', '--dnc', '0'],
      '--upload downloads the file as it was uploaded: --line-type, --dnc and --callable-now filter results only',
    ],
    [
      ['--callable-now', 'yes'],
      '--callable-now takes 1 (inside the calling window when scrubbed), 0 (outside) or all; the result needs the callable_now column',
    ],
    [
      ['--line-type', 'mobile,cell'],
      '--line-type takes mobile, landline, voip, toll_free, invalid, unknown_geographic, all (got "cell")',
    ],
    [['--dnc', '2'], '--dnc takes 0 (clean numbers only), 1 (DNC numbers only) or all'],
  ])('refuses %j with exit 2', async (options, message) => {
    const result = await scrub(['export', 'Kq3vX0m1yJ8aT2pQ7rL4sN6uW9zB5cDe', ...options], env);

    expect(result).toMatchObject({ code: 2, stdout: '', stderr: `error: ${message}\n` });
  });
});
