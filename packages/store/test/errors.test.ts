import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore, isStoreProgrammerError } from '@cohort/store';
import type { StoreProgrammerErrorCode } from '@cohort/store';
import { makeCommit, replayAll } from '@cohort/store/testing';
import { JournalSinceEntry } from '../src/internal/journal/SinceEntry.ts';
import { utf8 } from '../src/internal/disk/digest.ts';

/** What `run` threw, as its code (or `null`: it threw something else, or nothing). */
function codeOf(run: () => unknown): StoreProgrammerErrorCode | null {
  try {
    run();
  } catch (thrown) {
    return isStoreProgrammerError(thrown) ? thrown.code : null;
  }
  return null;
}

describe('programmer errors', () => {
  it('every programmer error the store throws carries its stable code', () => {
    const remove = { type: 'REMOVE', skill_id: 'context-99999', section: 'context' } as const;
    const changed = new JournalSinceEntry(1, 'chain', utf8('{"not":"a line"}\n'), 0, 16);
    expect([
      codeOf(() => new MemoryStore(undefined, { historyLimit: 0 })),
      codeOf(() => new MemoryStore(undefined, { historyLimit: 2.5 })),
      codeOf(() => changed.line),
      codeOf(() => makeCommit(Skillbook.empty(), [{ type: 'BOGUS' } as never])),
      codeOf(() => replayAll(Skillbook.empty(), [[{ ...remove, at: 't' } as never]])),
    ]).toEqual(['STORE_INVALID_OPTION', 'STORE_INVALID_OPTION', 'STORE_LINE_CHANGED', 'TESTING_BATCH_REFUSED', 'TESTING_REPLAY_REFUSED']);
  });

  it("isStoreProgrammerError - tells the store's codes from other errors, and one code from another", () => {
    let thrown: unknown = null;
    try {
      new MemoryStore(undefined, { historyLimit: -1 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RangeError);
    expect((thrown as Error).message).toBe('MemoryStore: historyLimit must be a positive integer, got -1');
    expect(isStoreProgrammerError(thrown, 'STORE_INVALID_OPTION')).toBe(true);
    expect(isStoreProgrammerError(thrown, 'STORE_LINE_CHANGED')).toBe(false);
    expect(isStoreProgrammerError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
    expect(isStoreProgrammerError(Object.assign(new Error('x'), { code: 'toString' }))).toBe(false);
    expect(isStoreProgrammerError({ code: 'STORE_LINE_CHANGED' })).toBe(false);
  });
});
