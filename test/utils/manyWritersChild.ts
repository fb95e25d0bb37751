/**
 * One Cohort process of the many-writers test: a runtime (default runtime id: random) over a
 * FileStore shared with other processes runs root sessions, each with children and a
 * grandchild that add, update and tag; some grandchildren crash after adding. It prints one
 * JSON line per event, on stdout:
 *
 * - `{"kind":"ready"}` once the runtime is ready;
 * - `{"kind":"told", "sessionId", "path", "tool", "skillId", "issue"}` for every tool result a
 *   session was told (ok ones only);
 * - `{"kind":"settled", "sessionId", "path", "status"}` for every session that settled;
 * - `{"kind":"audit", "entries"}` at the end: every entry this runtime merged (`rt.audit`, whole);
 * - `{"kind":"done"}` after the store closed.
 */
import { writeSync } from 'node:fs';
import { createRuntime } from '@cohort/runtime';
import type { Session, SkillIdResult, TagResult } from '@cohort/runtime';
import { openChildStore } from './childStore.ts';
import type { ChildStoreOptions } from './childStore.ts';

interface Options extends ChildStoreOptions {
  /** Root sessions, run `concurrent` at a time. */
  readonly roots: number;
  readonly concurrent: number;
  /** Ids of skills every process may tag. */
  readonly seeds: readonly string[];
}

const say = (line: Record<string, unknown>): void => void writeSync(1, `${JSON.stringify(line)}\n`);

function told(s: Session, tool: string, issue: string, result: SkillIdResult | TagResult): string | null {
  if (!('ok' in result)) return null;
  say({ kind: 'told', sessionId: s.id, path: s.path, tool, skillId: result.skill_id, issue });
  return result.skill_id;
}

/** Adds a skill whose issue names the session, then (`update`) changes it, then tags `tagged`. */
async function work(s: Session, update: boolean, tagged: string): Promise<string | null> {
  const issue = `learned by ${s.id}`;
  const id = told(
    s,
    'add_skill',
    issue,
    await s.tools.add_skill({ section: s.depth % 2 === 0 ? 'context' : 'harness', issue, insight: 'first' }),
  );
  if (id && update) told(s, 'update_skill', issue, await s.tools.update_skill({ skill_id: id, insight: `revised by ${s.id}` }));
  told(s, 'tag_skill', issue, await s.tools.tag_skill({ skill_id: tagged, tag: 'helpful' }));
  return id;
}

function settled(outcome: { sessionId: string; path: readonly string[]; status: string }): void {
  say({ kind: 'settled', sessionId: outcome.sessionId, path: outcome.path, status: outcome.status });
}

async function root(s: Session, n: number, seeds: readonly string[]): Promise<void> {
  const mine = await work(s, false, seeds[n % seeds.length] ?? '');
  const children = [0, 1].map((c) =>
    s.spawn(
      async (child) => {
        const own = await work(child, true, mine ?? seeds[0] ?? '');
        if (c === 0) {
          const grandchild = await child.spawn(
            async (g) => {
              await work(g, true, own ?? mine ?? '');
              // every third grandchild crashes after its writes: nothing of it may land
              if (n % 3 === 2) throw new Error(`${g.id} crashes`);
            },
            { name: 'grandchild' },
          );
          settled(grandchild);
        }
      },
      { name: `child ${c}` },
    ),
  );
  for (const outcome of await Promise.all(children)) settled(outcome);
}

async function main(): Promise<void> {
  const { options, store } = await openChildStore<Options>(8);
  const rt = createRuntime({ store, auditWindow: Number.POSITIVE_INFINITY });
  await rt.ready;
  say({ kind: 'ready' });
  let next = 0;
  const loop = async (): Promise<void> => {
    for (let n = next++; n < options.roots; n = next++) settled(await rt.run((s) => root(s, n, options.seeds), { name: `root ${n}` }));
  };
  await Promise.all(Array.from({ length: options.concurrent }, loop));
  say({ kind: 'audit', entries: rt.audit });
  await rt.close();
  say({ kind: 'done' });
}

await main();
