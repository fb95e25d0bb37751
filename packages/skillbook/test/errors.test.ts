import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator, formatAceTimestamp, isSkillbookDefect } from '../src/index.ts';
import type { SkillbookDefectCode } from '../src/index.ts';
import { freezeMap } from '../src/internal/frozenMap.ts';

/** What `act` threw: its class and code. */
function thrown(act: () => unknown): { readonly error: unknown } {
  try {
    act();
  } catch (error) {
    return { error };
  }
  throw new Error('expected a throw');
}

function pastSafeCounter(): Skillbook {
  const r = Skillbook.empty()
    .reserveIds(2 ** 53 - 1)
    .applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'last' }] });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

describe('errors - programmer errors carry a stable code from one table', () => {
  const cases: [SkillbookDefectCode, ErrorConstructor, () => unknown][] = [
    ['IDS_UNSAFE_COUNTER', RangeError, () => createIdAllocator(1.5)],
    ['RESERVE_IDS_INVALID', RangeError, () => Skillbook.empty().reserveIds(Number.NaN)],
    [
      'RESERVE_IDS_INVALID',
      RangeError,
      () =>
        Skillbook.empty()
          .edit()
          .reserveIds(2 ** 60),
    ],
    // the book's own counter counted past 2^53 - 1: the next batch cannot count on
    ['BOOK_UNSAFE_NEXT_ID', RangeError, () => pastSafeCounter().edit().applyBatch({ operations: [] })],
    ['CLOCK_NOT_A_READING', RangeError, () => formatAceTimestamp(Number.NaN)],
    ['CLOCK_OUT_OF_RANGE', RangeError, () => formatAceTimestamp(Date.UTC(10000, 0, 1))],
    ['FROZEN_MAP_WRITE', TypeError, () => (freezeMap(new Map([['a', 1]])) as Map<string, number>).set('b', 2)],
  ];

  for (const [code, kind, act] of cases) {
    it(`errors - ${code} is a ${kind.name} with its code`, () => {
      const { error } = thrown(act);
      expect(error).toBeInstanceOf(kind);
      expect(isSkillbookDefect(error, code)).toBe(true);
      expect(isSkillbookDefect(error)).toBe(true);
    });
  }

  it('errors - an error without a code of the table is not a Skillbook defect', () => {
    expect(isSkillbookDefect(new Error('x'))).toBe(false);
    expect(isSkillbookDefect(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
    expect(isSkillbookDefect('IDS_UNSAFE_COUNTER')).toBe(false);
    expect(isSkillbookDefect(thrown(() => createIdAllocator(1.5)).error, 'CLOCK_OUT_OF_RANGE')).toBe(false);
  });
});
