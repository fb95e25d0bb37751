import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore, describeOpenError } from '@cohort/store';
import { makeCommit } from '@cohort/store/testing';
import { printable } from '../src/printable.ts';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';

const tempDir = useTempDirs('cli');

/** What a terminal acts on: ESC (CSI, OSC), BEL, CR, backspace, C1, a bidirectional override. */
const HOSTILE = 'clear\u001b[2J title\u001b]0;pwned\u0007 back\r over\b c1\u009b bidi\u202e';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function hostileStore(): Promise<string> {
  const dir = await tempDir();
  const document = join(dir, 'skillbook.json');
  const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const made = makeCommit(
    opened.store.book,
    [
      { type: 'ADD', section: 'context', issue: `issue ${HOSTILE}`, insight: `insight ${HOSTILE}`, keywords: [`kw${HOSTILE}`] },
      { type: 'ADD', section: 'context', skill_id: `id\u001b[31m-red`, issue: 'x', insight: 'y' },
    ],
    { sessionId: `s\u001b]0;t\u0007`, path: ['root', `child\r\nforged line`] },
  );
  const r = await opened.store.append(made.commit);
  if (!r.ok) throw new Error(r.error.message);
  await opened.store.close();
  return document;
}

describe('cohort book output escapes control characters', () => {
  it('book escaping - show, log and stats print skill text, ids and session paths with control characters escaped', async () => {
    const document = await hostileStore();
    for (const command of ['show', 'log', 'stats', 'verify']) {
      const r = await runCohort(['book', command, document]);
      expect(r.code, command).toBe(0);
      expect(RAW.test(r.out), `${command}: ${JSON.stringify(r.out)}`).toBe(false);
    }
    const shown = await runCohort(['book', 'show', document]);
    expect(shown.out).toContain('clear\\x1b[2J title\\x1b]0;pwned\\x07 back\\r over\\x08 c1\\x9b bidi\\u202e');
    const log = await runCohort(['book', 'log', document]);
    expect(log.out).toContain('child\\r\\nforged line');
    expect(log.out.split('\n').some((l) => l.startsWith('forged line'))).toBe(false);
  });

  it('book escaping - --json stays exact: the strings read back as they were written', async () => {
    const document = await hostileStore();
    const shown = JSON.parse((await runCohort(['book', 'show', document, '--json'])).out) as { prompt: string };
    expect(shown.prompt).toContain(`insight ${HOSTILE}`);
    const log = JSON.parse((await runCohort(['book', 'log', document, '--json'])).out) as { path: string[] }[];
    expect(log[0]?.path).toEqual(['root', 'child\r\nforged line']);
  });

  it('printable - escapes what acts on a terminal, keeps the rest (and newlines and tabs in multi-line text)', () => {
    expect(printable('a\u001b[1mb\u0007c\rd\u007f\u0085e\u2028f')).toBe('a\\x1b[1mb\\x07c\\rd\\x7f\\x85e\\u2028f');
    expect(printable('one\ntwo\tthree', { multiline: true })).toBe('one\ntwo\tthree');
    expect(printable('one\ntwo')).toBe('one\\ntwo');
    expect(printable('héllo — 日本 😀')).toBe('héllo — 日本 😀');
  });
});
