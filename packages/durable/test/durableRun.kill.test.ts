/**
 * Real processes, a real kill: three durable workers share one system database and one
 * PostgreSQL store; the fan-out's root runs on the first one, its children on all three.
 * Once some children are recorded and others are not, the root's process is SIGKILLed; it is
 * started again with the same executor id and resumes the run. The run completes with the
 * book an uncrashed run gives, its root commit reaches the store once, no recorded child ran
 * again, and a fourth worker asking for the same run id gets the same outcome.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import type { SessionOutcome } from '@cohort/runtime';
import { expectCrashFreeBook, expectRecordedRanOnce } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { sql } from './utils/pg.ts';

const fleet = useFleet();
const { schema, logSchema, systemDatabaseUrl } = fleet;
const RUN = { id: 'kill-1', children: 8, delayMs: 500 };

const base = (executorId: string) => fleet.options(executorId);
const start = fleet.start;

/** The children's units by status, from DBOS's table. */
async function childUnits(): Promise<{ id: string; status: string }[]> {
  return sql<{ id: string; status: string }>(
    'SELECT workflow_uuid AS id, status FROM dbos.workflow_status WHERE workflow_uuid LIKE $1 ORDER BY workflow_uuid',
    [`${RUN.id}/%`],
    systemDatabaseUrl,
  );
}

it("durable run - SIGKILL of the root's worker mid-run: resumed, the same book, the root commit once, no recorded child run again", async () => {
  // the first worker makes the system database; the others join it
  const first = start({ ...base('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  const others = [start(base('worker-2')), start(base('worker-3'))];
  await Promise.all(others.map((w) => w.line('ready', 40_000)));

  // wait until some children are recorded and some are not, then kill the root's process
  let recorded: string[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    const units = await childUnits();
    recorded = units.filter((u) => u.status === 'SUCCESS').map((u) => u.id);
    if (recorded.length >= 3 && recorded.length < RUN.children) break;
  }
  expect(recorded.length, 'children recorded before the kill').toBeGreaterThanOrEqual(3);
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));
  expect(
    first.lines.find((l) => l['t'] === 'outcome'),
    'the run had not finished at the kill',
  ).toBeUndefined();
  recorded = (await childUnits()).filter((u) => u.status === 'SUCCESS').map((u) => u.id);

  // the same executor id resumes the root; another worker asks for the same run and gets its outcome
  start(base('worker-1'));
  const asker = start({ ...base('worker-4'), run: RUN });
  const { outcome } = (await asker.line('outcome', 40_000)) as { outcome: SessionOutcome<FanOutOutput> };
  await expectCrashFreeBook(outcome, schema, RUN.children);

  // a child whose outcome was recorded before the kill never ran again
  await expectRecordedRanOnce(logSchema, recorded, RUN.children);
}, 120_000);
