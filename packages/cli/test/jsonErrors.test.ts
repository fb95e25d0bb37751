import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';

const tempDir = useTempDirs('json');

/** `cohort <argv>`, whose stdout must be one JSON value, and nothing on stderr. */
async function runJson(argv: string[]): Promise<{ code: number; value: unknown }> {
  const r = await runCohort(argv);
  expect(r.err, argv.join(' ')).toBe('');
  return { code: r.code, value: JSON.parse(r.out) };
}

describe('--json errors', () => {
  it('--json - a path that cannot be a store is a JSON error on stdout, with the exit code', async () => {
    const dir = await tempDir();
    const missing = join(dir, 'nothing.json');
    for (const command of ['show', 'stats', 'log', 'verify', 'repair']) {
      expect(await runJson(['book', command, missing, '--json'])).toEqual({
        code: 1,
        value: {
          ok: false,
          exitCode: 1,
          error: `cohort book ${command}: ${missing} does not exist (give the store's document, e.g. data/skillbook.json)`,
        },
      });
    }
  });

  it('--json - a store that cannot be read, a bad URL and a usage error are JSON too', async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    await writeFile(document, '{"skills": {}}');
    const unread = await runJson(['book', 'stats', document, '--json']);
    expect(unread).toMatchObject({
      code: 1,
      value: { ok: false, exitCode: 1, error: expect.stringContaining('unsupported_schema_version') },
    });
    const url = await runJson(['book', 'show', 'postgres://127.0.0.1:5432/test?schema=Bad', '--json']);
    expect(url).toMatchObject({ code: 1, value: { ok: false, error: expect.stringContaining('invalid_options') } });
    expect(await runJson(['book', 'show', '--json'])).toEqual({
      code: 2,
      value: { ok: false, exitCode: 2, error: "error: missing required argument 'path'\n(`cohort book show --help` prints its usage)" },
    });
  });

  it('without --json, errors stay lines on stderr', async () => {
    const r = await runCohort(['book', 'show', join(tmpdir(), 'cohort-no-such-dir', 'x.json')]);
    expect([r.code, r.out, r.err]).toEqual([1, '', expect.stringMatching(/^cohort book show: .* does not exist/)]);
  });
});
