import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { AppliedOp } from '@cohort/skillbook';
import { FileStore, describeOpenError, replayHistory } from '@cohort/store';
import { readHistory } from '@cohort/store/testing';
import { childCommand } from '../packages/store/test/utils/spawnMergeChild.ts';
import type { ChildCommand } from '../packages/store/test/utils/spawnMergeChild.ts';

const CHILD = fileURLToPath(new URL('./utils/manyWritersChild.ts', import.meta.url));
const SEEDS = 3;

type Line =
  | { kind: 'ready' | 'done' }
  | { kind: 'told'; sessionId: string; path: string[]; tool: 'add_skill' | 'update_skill' | 'tag_skill'; skillId: string; issue: string }
  | { kind: 'settled'; sessionId: string; path: string[]; status: 'committed' | 'failed' }
  | { kind: 'audit'; entries: AuditEntry[] };

/** Runs one writer process to its end; what it printed. */
function runWriter(command: ChildCommand, options: Record<string, unknown>, go: Promise<void>): Promise<Line[]> {
  const proc = spawn(process.execPath, [...command.args, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  let pending = '';
  let stderr = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      lines.push(JSON.parse(pending.slice(0, nl)) as Line);
      pending = pending.slice(nl + 1);
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  void go.then(() => proc.stdin.end('GO\n'));
  return new Promise((resolve, reject) => {
    proc.on('close', (code) =>
      code === 0 && lines.at(-1)?.kind === 'done' ? resolve(lines) : reject(new Error(`writer exited ${code}: ${stderr}`)),
    );
  });
}

const opKey = (e: { revision: number; sessionId: string; path: readonly string[]; ops: readonly AppliedOp[] }): string =>
  `${e.revision} ${e.sessionId} ${e.path.join('/')} ${JSON.stringify(e.ops)}`;

/** What each session wrote, by kind of session: its depth. */
const EXPECTED_OPS = [
  ['ADD', 'TAG'],
  ['ADD', 'UPDATE', 'TAG'],
  ['ADD', 'UPDATE', 'TAG'],
] as const;

describe('many writers on one file store, real processes', () => {
  let command: ChildCommand;
  const dirs: string[] = [];
  beforeAll(async () => {
    command = await childCommand(CHILD);
  });
  afterAll(async () => {
    await command.dispose();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  for (const processes of [2, 4]) {
    it(`${processes} processes - nested sessions in each: every id told names that session's skill, none told twice; the log attributes every op to its session's full path; history = the union of the audits`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'cohort-writers-'));
      dirs.push(dir);
      const document = join(dir, 'skillbook.json');
      const seeded = Skillbook.empty().applyBatch({
        operations: Array.from({ length: SEEDS }, (_, i) => ({ type: 'ADD', section: 'context', issue: `seed ${i}`, insight: 'x' })),
      });
      if (!seeded.ok) throw new Error(seeded.error.message);
      await writeFile(document, seeded.book.toJSON());
      const seeds = [...seeded.book.skills()].map((k) => k.id);
      let start = () => {};
      const go = new Promise<void>((resolve) => (start = resolve));
      const runs = Array.from({ length: processes }, (_, p) =>
        runWriter(command, { document, writerId: `writer-${p}`, roots: 6, concurrent: 3, seeds }, go),
      );
      start();
      const outputs = await Promise.all(runs);

      const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
      if (!opened.ok) throw new Error(describeOpenError(opened.error));
      const book = opened.store.book;
      const told = outputs.flatMap((lines) => lines.flatMap((l) => (l.kind === 'told' ? [l] : [])));
      const settled = new Map(outputs.flatMap((lines) => lines.flatMap((l) => (l.kind === 'settled' ? [[l.sessionId, l] as const] : []))));
      const landed = (path: readonly string[]) => path.every((id) => settled.get(id)?.status === 'committed');

      // session ids: one runtime id per process, no session id in two processes
      const prefixes = outputs.map((lines) => new Set(lines.flatMap((l) => (l.kind === 'settled' ? [l.sessionId.split('.')[0]] : []))));
      for (const set of prefixes) expect(set.size).toBe(1);
      expect(new Set(prefixes.flatMap((set) => [...set])).size).toBe(processes);
      expect(settled.size).toBe(processes * 6 * 4);
      expect([...settled.values()].filter((s) => s.status === 'failed')).toHaveLength(processes * 2);

      // every id told names exactly that session's skill; no two sessions told the same id
      const adds = told.filter((t) => t.tool === 'add_skill');
      expect(new Set(adds.map((t) => t.skillId)).size).toBe(adds.length);
      for (const t of adds) {
        const skill = book.get(t.skillId);
        if (!landed(t.path)) expect(skill, `${t.skillId} of a failed session`).toBeUndefined();
        else {
          expect(skill?.issue).toBe(t.issue);
          if (t.path.length > 1) expect(skill?.insight).toBe(`revised by ${t.sessionId}`);
        }
      }
      for (const t of told.filter((x) => x.tool !== 'add_skill' && landed(x.path))) expect(book.has(t.skillId)).toBe(true);

      // the persisted log: each session's block under its full path, holding exactly its own ops
      const persisted = await readHistory(opened.store);
      const blocks = persisted.filter((c) => c.kind === 'commit').flatMap((c) => c.entries);
      const bySession = new Map<string, AppliedOp[]>();
      for (const b of blocks) {
        expect(b.path).toEqual(settled.get(b.sessionId)?.path);
        bySession.set(b.sessionId, [...(bySession.get(b.sessionId) ?? []), ...b.ops]);
        for (const op of b.ops) if (op.type === 'ADD') expect(op.issue).toBe(`learned by ${b.sessionId}`);
      }
      for (const [id, s] of settled) {
        const ops = bySession.get(id)?.map((op) => op.type) ?? [];
        expect(ops, `the ops of ${s.path.join('/')}`).toEqual(landed(s.path) ? EXPECTED_OPS[s.path.length - 1] : []);
      }

      // the history read after reopening is the union of what the runtimes merged, and replays to the book
      const audits = outputs.flatMap((lines) => lines.flatMap((l) => (l.kind === 'audit' ? l.entries : [])));
      const fromHistory = persisted.filter((c) => c.kind === 'commit').flatMap((c) => c.entries.map(opKey));
      expect(fromHistory.sort()).toEqual(audits.map(opKey).sort());
      const replayed = replayHistory(persisted);
      expect(replayed.ok && replayed.book.reserveIds(book.nextId).toJSON()).toBe(book.toJSON());
      await opened.store.close();
    }, 120_000);
  }
});
