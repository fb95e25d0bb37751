/**
 * Cohort and ACE sharing one skillbook.json, measured: a runtime over a FileStore runs nested
 * sessions that add, update, tag and remove skills, while an ACE-style writer process
 * (packages/store/test/utils/aceWriter.ts) loads, changes and saves the same document in
 * place. At the end, what each side was told it wrote is looked for in the live document.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { Skill } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import type { StoreNotice } from '@cohort/store';
import { seededRandom } from '@cohort/store/testing';
import { childCommand, spawnMergeChild } from '../../packages/store/test/utils/spawnMergeChild.ts';
import type { AceOp, AceSave, AceWriterOptions } from '../../packages/store/test/utils/aceWriter.ts';

const WRITER = fileURLToPath(new URL('../../packages/store/test/utils/aceWriter.ts', import.meta.url));

/** How to run one measurement. */
export interface SharingOptions {
  readonly mode: AceWriterOptions['mode'];
  readonly durationMs: number;
  readonly seed: number;
  readonly store?: { readonly checkpointEvery?: number; readonly idleCheckpointMs?: number };
  /** Root sessions running at once. */
  readonly roots?: number;
}

type CohortOp =
  | { readonly op: 'ADD'; readonly issue: string }
  | { readonly op: 'UPDATE'; readonly issue: string; readonly insight: string }
  | { readonly op: 'TAG'; readonly issue: string; readonly delta: 1 | -1 | 0 };

interface Acked {
  readonly ops: readonly CohortOp[];
  readonly revision: number;
  /** When its root session started: no document held its changes before. */
  readonly at: number;
}

/** What the measurement found. */
export interface SharingResult {
  readonly dir: string;
  readonly cohort: {
    readonly adds: number;
    readonly addsInLive: number;
    readonly updates: number;
    readonly updatesInLive: number;
    readonly updatesInConflicts: number;
    readonly missing: readonly string[];
  };
  readonly ace: { readonly saves: number; readonly adds: number; readonly addsInLive: number; readonly missing: readonly string[] };
  readonly counters: { readonly expected: number; readonly inLive: number; readonly wrong: readonly string[] };
  readonly duplicates: readonly string[];
  readonly copies: number;
  readonly conflicts: number;
  readonly copySkillsOnly: number;
  readonly notices: Readonly<Record<string, number>>;
}

/** One child session: adds a skill, sometimes updates, tags or removes one it sees. */
async function childBody(c: Session, random: () => number, next: () => number): Promise<CohortOp[]> {
  const ops: CohortOp[] = [];
  const issue = `cohort-${next()}`;
  const added = await c.tools.add_skill({ section: 'context', issue, insight: `learned by Cohort: ${issue}` });
  if ('ok' in added) ops.push({ op: 'ADD', issue });
  const active = [...c.book.skills()].filter((s) => s.active);
  const pick = (): Skill | undefined => active[Math.floor(random() * active.length)];
  const tagged = pick();
  if (tagged && random() < 0.6) {
    const delta = ([1, -1, 0] as const)[Math.floor(random() * 3)] ?? 1;
    const r = await c.tools.tag_skill({ skill_id: tagged.id, tag: delta === 1 ? 'helpful' : delta === -1 ? 'harmful' : 'neutral' });
    if ('ok' in r) ops.push({ op: 'TAG', issue: tagged.issue, delta });
  }
  const updated = pick();
  if (updated && random() < 0.4) {
    const insight = `updated by Cohort (#${next()})`;
    const r = await c.tools.update_skill({ skill_id: updated.id, insight });
    if ('ok' in r) ops.push({ op: 'UPDATE', issue: updated.issue, insight });
  }
  const removed = pick();
  if (removed && random() < 0.05) await c.tools.remove_skill({ skill_id: removed.id });
  return ops;
}

async function runCohort(
  rt: ReturnType<typeof createRuntime>,
  done: () => boolean,
  random: () => number,
  roots: number,
  next: () => number,
): Promise<Acked[]> {
  const acked: Acked[] = [];
  const loop = async (): Promise<void> => {
    while (!done()) {
      const at = Date.now();
      const outcome = await rt.run(async (s) => {
        const kids = await Promise.all([0, 1].map(() => s.spawn((c: Session) => childBody(c, random, next))));
        return kids.flatMap((k) => (k.status === 'committed' ? k.output : []));
      });
      if (outcome.status === 'committed') acked.push({ ops: outcome.output, revision: outcome.revision, at });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  await Promise.all(Array.from({ length: roots }, loop));
  return acked;
}

function savesOf(lines: readonly { kind: string; text?: string }[]): AceSave[] {
  return lines.flatMap((l) => (l.kind === 'other' && l.text?.startsWith('SAVED ') ? [JSON.parse(l.text.slice(6)) as AceSave] : []));
}

type Counts = [number, number, number];
const slot = (delta: 1 | -1 | 0): 0 | 1 | 2 => (delta === 1 ? 0 : delta === -1 ? 1 : 2);

/**
 * Runs Cohort and an ACE-style writer on one document for `durationMs`, then closes the store
 * and measures the live document against what each side was told it wrote.
 */
export async function measureSharing(options: SharingOptions): Promise<SharingResult> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-sharing-'));
  const document = join(dir, 'skillbook.json');
  const opened = await FileStore.open(document, {
    checkpointEvery: options.store?.checkpointEvery ?? 4,
    idleCheckpointMs: options.store?.idleCheckpointMs ?? 50,
  });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const notices: StoreNotice[] = [];
  opened.store.notices$.subscribe((x) => notices.push(x));
  const rt = createRuntime({ store: opened.store });
  await rt.ready;
  const random = seededRandom(options.seed);
  let n = 0;
  const next = (): number => (n += 1);
  let stop = false;
  const warmUp = await runCohort(rt, () => rt.book.size >= 8, random, 1, next);
  await opened.store.checkpoint();
  const command = await childCommand(WRITER);
  const writerOptions: AceWriterOptions = {
    document,
    mode: options.mode,
    durationMs: options.durationMs,
    seed: options.seed,
    prefix: `ace-${options.mode}`,
  };
  const writer = spawnMergeChild({ ...writerOptions }, command);
  const closed = writer.closed.then((r) => {
    stop = true;
    return r;
  });
  const acked = [...warmUp, ...(await runCohort(rt, () => stop, random, options.roots ?? 2, next))];
  const exit = await closed;
  await command.dispose();
  if (exit.code !== 0) throw new Error(`the ACE writer failed (${exit.code}): ${exit.stderr}`);
  await rt.close();
  return judge(dir, document, acked, savesOf(writer.lines), notices);
}

async function judge(
  dir: string,
  document: string,
  acked: readonly Acked[],
  saves: readonly AceSave[],
  notices: readonly StoreNotice[],
): Promise<SharingResult> {
  const live = Skillbook.fromJSON(await readFile(document, 'utf8'));
  const byIssue = new Map<string, Skill[]>();
  for (const s of live.skills()) byIssue.set(s.issue, [...(byIssue.get(s.issue) ?? []), s]);
  const duplicates = [...byIssue].filter(([, list]) => list.length > 1).map(([issue]) => issue);
  const one = (issue: string): Skill | undefined => byIssue.get(issue)?.[0];
  const aceOps = saves.flatMap((s) => s.ops.map((op) => ({ ...op, at: s.at })));
  const cohortOps = [...acked].sort((a, b) => a.revision - b.revision).flatMap((a) => a.ops.map((op) => ({ ...op, at: a.at })));
  const conflictLog = (await readFile(`${document}.conflicts`, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StoreNotice);
  const conflicted = new Set(conflictLog.flatMap((r) => ('conflicts' in r ? (r.conflicts ?? []).map((c) => c.skillId) : [])));
  const conflicts = conflictLog.reduce((n, r) => n + ('conflicts' in r ? (r.conflicts ?? []).length : 0), 0);
  // counters: every increment of either side, once
  const expected = new Map<string, Counts>();
  for (const op of [...cohortOps, ...aceOps]) {
    if (op.op !== 'TAG') continue;
    const c = expected.get(op.issue) ?? [0, 0, 0];
    const i = slot(op.delta);
    c[i] = c[i] + 1;
    expected.set(op.issue, c);
  }
  const wrong: string[] = [];
  let inLive = 0;
  let total = 0;
  for (const [issue, c] of expected) {
    const s = one(issue);
    const have: Counts = s ? [s.helpful_count, s.harmful_count, s.neutral_count] : [0, 0, 0];
    total += c[0] + c[1] + c[2];
    inLive += Math.min(have[0], c[0]) + Math.min(have[1], c[1]) + Math.min(have[2], c[2]);
    if (have.some((v, i) => v !== c[i])) wrong.push(`${issue}: expected ${c.join('/')}, live ${have.join('/')}`);
  }
  // Cohort's updates: the last acknowledged one of each skill is live, or superseded by an ACE update saved after
  // its session started (one whose base held it: an ACE update that did not is a conflict, and loses), or in a logged conflict
  const lastUpdate = new Map<string, { insight: string; at: number }>();
  for (const op of cohortOps) if (op.op === 'UPDATE') lastUpdate.set(op.issue, { insight: op.insight, at: op.at });
  let updatesInLive = 0;
  let updatesInConflicts = 0;
  const missing: string[] = [];
  for (const [issue, u] of lastUpdate) {
    const s = one(issue);
    const superseded = aceOps.some((a) => a.op === 'UPDATE' && a.issue === issue && a.insight === s?.insight && a.at > u.at);
    if (s && (s.insight === u.insight || superseded)) updatesInLive += 1;
    else if (s && conflicted.has(s.id)) updatesInConflicts += 1;
    else missing.push(`update of ${issue} (${u.insight}; live: ${s?.insight ?? 'absent'})`);
  }
  const cohortAdds = cohortOps.filter((o) => o.op === 'ADD');
  const aceAdds = aceOps.filter((o): o is AceOp & { op: 'ADD'; at: number } => o.op === 'ADD');
  const names = await readdir(dir);
  const copyNames = names.filter((n) => n.includes('.recovery-') && n.endsWith('.json') && !n.endsWith('.meta.json'));
  const copyOnly = new Set<string>();
  for (const name of copyNames) {
    for (const s of Skillbook.fromJSON(await readFile(join(dir, name), 'utf8')).skills()) if (!byIssue.has(s.issue)) copyOnly.add(s.issue);
  }
  const counts: Record<string, number> = {};
  for (const x of notices) counts[x.type] = (counts[x.type] ?? 0) + 1;
  missing.push(...cohortAdds.filter((o) => !byIssue.has(o.issue)).map((o) => `add ${o.issue}`));
  return {
    dir,
    cohort: {
      adds: cohortAdds.length,
      addsInLive: cohortAdds.filter((o) => byIssue.has(o.issue)).length,
      updates: lastUpdate.size,
      updatesInLive,
      updatesInConflicts,
      missing,
    },
    ace: {
      saves: saves.length,
      adds: aceAdds.length,
      addsInLive: aceAdds.filter((o) => byIssue.has(o.issue)).length,
      missing: aceAdds.filter((o) => !byIssue.has(o.issue)).map((o) => o.issue),
    },
    counters: { expected: total, inLive, wrong },
    duplicates,
    copies: copyNames.length,
    conflicts,
    copySkillsOnly: copyOnly.size,
    notices: counts,
  };
}
