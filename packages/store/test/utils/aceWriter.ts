/**
 * Another program writing the same document the way ACE's learning loop does, in a process of
 * its own: load the document (`load_from_file`), add one or two skills (ids from the `next_id`
 * it loaded), sometimes update, tag or remove one of the skills it knows, `save_to_file` in
 * place, sleep 5–80 ms — on the model of ACE's Python `Skillbook` in `aceSkillbook.ts`.
 * Modes: `reload` loads the document before each save (an ACE process per learning step);
 * `long-running` loads it once and keeps saving from memory (one ACE learning loop), so each
 * save lacks what others wrote since.
 *
 * Prints `SAVED {"at","ops":[…]}` after each save (each op with the skill's `issue` and
 * `created_at`: what identifies it whatever id it ends under), then `DONE {"saves"}`.
 */
import { writeSync } from 'node:fs';
import { AceSkillbook } from './aceSkillbook.ts';
import type { AceSkill } from './aceSkillbook.ts';
import { seededRandom } from '../../src/internal/disk/SimDisk.ts';

/** The writer's options (argv[2], JSON). */
export interface AceWriterOptions {
  readonly document: string;
  readonly mode: 'reload' | 'long-running';
  /** Stop after this many saves… */
  readonly saves?: number;
  /** …or after this long. */
  readonly durationMs?: number;
  readonly seed: number;
  /** The issues of the skills it adds: `<prefix>-<n>`. */
  readonly prefix: string;
  /** Sleep between saves, `[min, max]` ms (default 5–80, as ACE's learning loop here). */
  readonly sleepMs?: readonly [number, number];
  /** Chances per save of an update, a tag and a remove (default 0.3, 0.5, 0.1). */
  readonly chances?: { readonly update?: number; readonly tag?: number; readonly remove?: number };
}

/** One change the writer saved. */
export type AceOp =
  | { readonly op: 'ADD'; readonly id: string; readonly issue: string; readonly createdAt: string }
  | { readonly op: 'UPDATE'; readonly id: string; readonly issue: string; readonly createdAt: string; readonly insight: string }
  | { readonly op: 'TAG'; readonly id: string; readonly issue: string; readonly createdAt: string; readonly delta: 1 | -1 | 0 }
  | { readonly op: 'REMOVE'; readonly id: string; readonly issue: string; readonly createdAt: string };

/** What `SAVED` carries. */
export interface AceSave {
  readonly at: number;
  readonly ops: readonly AceOp[];
}

function load(path: string): AceSkillbook {
  for (;;) {
    try {
      return AceSkillbook.loadFromFile(path);
    } catch {
      // another writer is mid-write (ACE writes in place too): read again
    }
  }
}

const ident = (s: AceSkill) => ({ id: s.id, issue: s.issue, createdAt: s.created_at });

/** One learning step's changes on `book` (mutated in place, as ACE does). */
function step(book: AceSkillbook, options: AceWriterOptions, random: () => number, counter: { n: number }): AceOp[] {
  const ops: AceOp[] = [];
  const adds = random() < 0.5 ? 1 : 2;
  for (let i = 0; i < adds; i += 1) {
    counter.n += 1;
    const issue = `${options.prefix}-${counter.n}`;
    ops.push({ op: 'ADD', ...ident(book.addSkill('context', issue, { keywords: ['ace'], insight: `learned by ACE: ${issue}` })) });
  }
  const active = [...book.skills.values()].filter((s) => s.active);
  const pick = (): AceSkill | undefined => active[Math.floor(random() * active.length)];
  const chances = { update: 0.3, tag: 0.5, remove: 0.1, ...options.chances };
  if (random() < chances.tag) {
    const target = pick();
    const delta = ([1, -1, 0] as const)[Math.floor(random() * 3)] ?? 1;
    if (target && book.tagSkill(target.id, delta)) ops.push({ op: 'TAG', ...ident(target), delta });
  }
  if (random() < chances.update) {
    const target = pick();
    counter.n += 1;
    const insight = `updated by ACE (${options.prefix} #${counter.n})`;
    if (target && book.updateSkill(target.id, { insight })) ops.push({ op: 'UPDATE', ...ident(target), insight });
  }
  if (random() < chances.remove) {
    const target = pick();
    if (target) {
      book.removeSkill(target.id);
      ops.push({ op: 'REMOVE', ...ident(target) });
    }
  }
  return ops;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as AceWriterOptions;
  const random = seededRandom(options.seed);
  const [lo, hi] = options.sleepMs ?? [5, 80];
  const until = options.durationMs === undefined ? Infinity : Date.now() + options.durationMs;
  const counter = { n: 0 };
  let book = load(options.document);
  let saves = 0;
  while (saves < (options.saves ?? Infinity) && Date.now() < until) {
    if (options.mode === 'reload') book = load(options.document);
    const ops = step(book, options, random, counter);
    book.saveToFile(options.document);
    saves += 1;
    writeSync(1, `SAVED ${JSON.stringify({ at: Date.now(), ops } satisfies AceSave)}\n`);
    await new Promise((resolve) => setTimeout(resolve, lo + random() * (hi - lo)));
  }
  writeSync(1, `DONE ${JSON.stringify({ saves })}\n`);
}

// tests import this file's types only (`import type`): nothing runs then
void main();
