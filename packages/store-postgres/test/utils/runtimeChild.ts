/**
 * A child process for the multi-process tests: a Cohort runtime on a PostgresStore running
 * root sessions with nested children and grandchildren that add, update, tag, sometimes
 * crash and sometimes conflict (they update one hot skill). It prints one JSON line per
 * settled root session (see {@link ChildReport}): `ack` lines only after `rt.run` resolved
 * committed, i.e. after the store's COMMIT returned.
 *
 * Ids: each add draws its id from a lease of the store (`leaseIds`) and passes it as an
 * explicit `skill_id`, so the id a session is told is final across processes.
 */
import { formatSkillId } from '@cohort/skillbook';
import { describeOpenError } from '@cohort/store';
import type { IdLease } from '@cohort/store';
import { createRuntime } from '@cohort/runtime';
import type { Session, SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';

/** What the parent passes (JSON in argv[2]). */
export interface ChildOptions {
  readonly url: string;
  readonly schema: string;
  readonly writerId: string;
  /** Root sessions to run; 0: until killed. */
  readonly roots: number;
  /** Root sessions running at once. */
  readonly concurrency: number;
  readonly seed: number;
  /** The skill every session may update (conflicts). */
  readonly hot: string;
  /** How often a session updates the hot skill (default 0.05). */
  readonly updateRate?: number;
}

/** One session whose work reached the root's commit: its id, path and the skills it added (id it was told, issue). */
export interface SessionReport {
  readonly id: string;
  readonly path: readonly string[];
  readonly adds: readonly (readonly [string, string])[];
  readonly ops: number;
}

/** A line the child prints. */
export type ChildReport =
  | { readonly t: 'ready'; readonly writer: string; readonly revision: number }
  | {
      readonly t: 'ack';
      readonly writer: string;
      readonly root: string;
      readonly revision: number;
      readonly sessions: readonly SessionReport[];
      /** How the descendants that failed failed (their work is not in the commit). */
      readonly failedBelow: readonly string[];
    }
  | { readonly t: 'fail'; readonly writer: string; readonly root: string; readonly kind: string }
  | { readonly t: 'done'; readonly writer: string };

const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
const say = (line: ChildReport): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

let state = options.seed >>> 0 || 1;
/** Seeded randomness (mulberry32). */
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Opens the store, trying again a few times (a connection killed while it opens is an io error, as it would be for a service). */
async function open(): Promise<Awaited<ReturnType<typeof PostgresStore.open>>> {
  for (let attempt = 1; ; attempt += 1) {
    const r = await PostgresStore.open({
      url: options.url,
      schema: options.schema,
      writerId: options.writerId,
      poolSize: 3,
      connectTimeoutMs: 2_000,
    });
    if (r.ok || attempt === 5) return r;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}
const opened = await open();
if (!opened.ok) {
  process.stderr.write(`${describeOpenError(opened.error)}\n`);
  process.exit(2);
}
const store = opened.store;
const rt = createRuntime({ store });
await rt.ready;

let lease: IdLease = { from: 0, to: 0 };
let next = 0;
/** The next id of this writer's leases (a new lease of 200 when one is used up). */
async function leasedId(section: 'context' | 'harness'): Promise<string> {
  while (next >= lease.to) {
    const r = await store.leaseIds(200);
    if (r.ok) {
      lease = r.lease;
      next = r.lease.from;
    } else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return formatSkillId(section, next++);
}

/** A session's own writes: an add or two, a tag, sometimes an update of the hot skill; sometimes a crash. */
async function work(s: Session, adds: [string, string][], crashRate: number): Promise<number> {
  let ops = 0;
  for (let i = 0; i < 1 + Math.floor(random() * 2); i += 1) {
    const section = random() < 0.5 ? 'context' : 'harness';
    const issue = `${options.writerId} ${s.id} add ${i} (${random().toString(36).slice(2, 8)})`;
    const r = await s.tools.add_skill({ section, issue, insight: 'learned', skill_id: await leasedId(section) });
    if (!('ok' in r)) throw new Error(`add_skill refused: ${r.error}`);
    adds.push([r.skill_id, issue]);
    ops += 1;
  }
  if ('ok' in (await s.tools.tag_skill({ skill_id: options.hot, tag: random() < 0.5 ? 'helpful' : 'harmful' }))) ops += 1;
  if (random() < 0.05 && 'ok' in (await s.tools.update_skill({ skill_id: options.hot, insight: `${options.writerId} ${s.id} was here` })))
    ops += 1;
  await s.sleep(Math.floor(random() * 5));
  if (random() < crashRate) throw new Error(`${s.id} crashes on purpose`);
  return ops;
}

type Tree = { readonly sessions: SessionReport[]; readonly failed: string[] };

/** A session with `depth` more levels of children below it; its report lists every committed session of its subtree. */
async function body(s: Session, depth: number): Promise<Tree> {
  const adds: [string, string][] = [];
  const ops = await work(s, adds, depth === 2 ? 0.05 : 0.12);
  const sessions: SessionReport[] = [{ id: s.id, path: s.path, adds, ops }];
  const failed: string[] = [];
  if (depth > 0) {
    const kids: SessionOutcome<Tree>[] = await Promise.all([0, 1].map(() => s.spawn<unknown, Tree>((c) => body(c, depth - 1))));
    for (const k of kids) {
      if (k.status === 'committed') {
        sessions.push(...k.output.sessions);
        failed.push(...k.output.failed);
      } else failed.push(k.failure.kind);
    }
  }
  return { sessions, failed };
}

async function root(): Promise<void> {
  const outcome = await rt.run<unknown, Tree>((s) => body(s, 2));
  if (outcome.status === 'committed') {
    say({
      t: 'ack',
      writer: options.writerId,
      root: outcome.sessionId,
      revision: outcome.revision,
      sessions: outcome.output.sessions,
      failedBelow: outcome.output.failed,
    });
  } else say({ t: 'fail', writer: options.writerId, root: outcome.sessionId, kind: outcome.failure.kind });
}

say({ t: 'ready', writer: options.writerId, revision: rt.revision });
let started = 0;
await Promise.all(
  Array.from({ length: options.concurrency }, async () => {
    while (options.roots === 0 || started < options.roots) {
      started += 1;
      await root();
    }
  }),
);
await rt.close();
say({ t: 'done', writer: options.writerId });
