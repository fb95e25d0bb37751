import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePyJson } from '../../src/internal/pyJson.ts';
import { writeIndented } from '../../src/internal/pyJsonText.ts';
import type { BatchResult, Clock, Skillbook, SkillbookStats } from '../../src/index.ts';

/** One expected state of the book (format `skillbook-conformance/1`). */
export interface Expected {
  readonly text: string;
  readonly prompt: string;
  readonly stats: SkillbookStats;
}

/** One step: a raw batch and what ACE (with Cohort's rules) ended with. */
export interface Step extends Expected {
  readonly batch: unknown;
  readonly ok: boolean;
  readonly error?: string;
}

/** One conformance case. `initialText` keeps the document's key order (JSON.parse would not). */
export interface Case {
  readonly seed: number;
  readonly initialText?: string;
  readonly loaded?: Expected;
  readonly steps: readonly Step[];
  readonly final_text: string;
}

const path = fileURLToPath(new URL('../fixtures/ace-skillbook-v2.json', import.meta.url));

/** The fixture's cases; `initial` documents re-serialised in their original key order. */
export function loadCases(): Case[] {
  const text = readFileSync(path, 'utf8');
  const plain = JSON.parse(text) as { cases: (Omit<Case, 'initialText'> & { initial?: unknown })[] };
  const ordered = parsePyJson(text);
  if (!ordered.ok || !(ordered.value instanceof Map)) throw new Error('fixture is not JSON');
  const orderedCases = ordered.value.get('cases') as readonly Map<string, unknown>[];
  return plain.cases.map((c, i) => {
    const initial = orderedCases[i]?.get('initial');
    const { initial: _ignored, ...rest } = c;
    return initial === undefined || initial === null ? rest : { ...rest, initialText: writeIndented(initial, '') };
  });
}

/** Replaces the values of `created_at` / `updated_at` with `<ts>`, as the fixture's `text` does. */
export function maskTimestamps(text: string): string {
  return text.replace(/"(created_at|updated_at)": "[^"]*"/g, '"$1": "<ts>"');
}

/** A clock that starts at a fixed instant and moves 1.5 ms per reading. */
export function steppingClock(start = Date.UTC(2026, 10, 29, 12, 0, 0)): Clock & { readonly readings: number } {
  let t = start;
  let readings = 0;
  return {
    now() {
      readings += 1;
      t += 1.5;
      return t;
    },
    get readings() {
      return readings;
    },
  };
}

/** A clock that always tells the same instant. */
export function fixedClock(at = Date.UTC(2026, 0, 1)): Clock {
  return { now: () => at };
}

/** A batch that applied, or a thrown error naming its code and message. */
export function ok(result: BatchResult): Extract<BatchResult, { ok: true }> {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
}

/** `book` with `operations` applied as one batch on `clock`; throws when the batch is refused. */
export function addAt(clock: Clock, book: Skillbook, ...operations: object[]): Skillbook {
  return ok(book.applyBatch({ operations }, { clock })).book;
}
