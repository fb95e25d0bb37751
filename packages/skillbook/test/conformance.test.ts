import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import type { Case, Expected } from './utils/fixture.ts';
import { loadCases, maskTimestamps, steppingClock } from './utils/fixture.ts';

const cases = loadCases();
let checks = 0;

/** Counts a check that passed (an `expect` that fails throws before counting). */
function check(run: () => void): void {
  run();
  checks += 1;
}

function expectState(book: Skillbook, expected: Expected): void {
  check(() => expect(maskTimestamps(book.toJSON())).toBe(expected.text));
  check(() => expect(book.asPrompt()).toBe(expected.prompt));
  check(() => expect(book.stats()).toEqual(expected.stats));
}

function runCase(c: Case): void {
  const clock = steppingClock();
  let book = Skillbook.empty();
  if (c.initialText !== undefined) {
    const loaded = Skillbook.parse(c.initialText);
    check(() => expect(loaded.ok).toBe(true));
    if (!loaded.ok) return;
    book = loaded.book;
    if (c.loaded) expectState(book, c.loaded);
  }
  for (const step of c.steps) {
    const result = book.applyBatch(step.batch, { clock });
    check(() => expect(result.ok).toBe(step.ok));
    if (!result.ok && step.error !== undefined) {
      check(() => expect(result.error.message).toBe(step.error?.replace(/^ValueError: /, '')));
    }
    book = result.book;
    expectState(book, step);
  }
  check(() => expect(Skillbook.fromJSON(c.final_text).toJSON()).toBe(c.final_text));
}

describe('Skillbook conformance with ACE (ace-skillbook-v2.json)', () => {
  it('the fixture holds 200 cases, 689 batches, 128 of them to be rejected', () => {
    expect(cases).toHaveLength(200);
    expect(cases.reduce((n, c) => n + c.steps.length, 0)).toBe(689);
    expect(cases.reduce((n, c) => n + c.steps.filter((s) => !s.ok).length, 0)).toBe(128);
  });

  for (const c of cases) {
    it(`case ${c.seed} - loading, every batch and saving match ACE byte for byte`, () => {
      runCase(c);
    });
  }

  // Runs last (tests in a file run in order): every check above ran and passed.
  it('all 3,308 checks ran and passed', () => {
    // loads: ok + text + prompt + stats; steps: ok + text + prompt + stats (+ the error message
    // when rejected); cases: the final round trip.
    const loads = cases.filter((c) => c.initialText !== undefined).length;
    expect(loads).toBe(56);
    expect(checks).toBe(loads * 4 + 689 * 4 + 128 + 200);
    expect(checks).toBe(3308);
  });
});
