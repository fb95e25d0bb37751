import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { FileStore } from '@cohort/store';
import { RecordingSchema, RunRecorder, parseRecording, recordRun } from '../src/index.ts';
import type { RunRecord, SessionRecord } from '../src/index.ts';
import { DEMO, SEED_ID, demoRun } from './utils/demoRun.ts';

function byName(run: RunRecord, name: string): SessionRecord {
  const session = run.sessions.find((s) => s.name === name);
  if (!session) throw new Error(`no session named ${name}`);
  return session;
}

describe('RunRecorder', () => {
  it('recordRun - the demo run: every session once, in spawn order, with its status, parent and failure', async () => {
    const { recording } = await demoRun();
    const run = recording.runs[0]!;
    expect(run.sessions.map((s) => s.name)).toEqual(['planner', 'writer', 'crasher', 'pruner', 'editor', 'helper']);
    expect(
      run.sessions
        .filter((s) => s.status === 'committed')
        .map((s) => s.name)
        .sort(),
    ).toEqual([...DEMO.committed].sort());
    const planner = byName(run, 'planner');
    expect(byName(run, 'helper').parentId).toBe(byName(run, 'writer').id);
    expect(byName(run, 'helper').path).toEqual([planner.id, byName(run, 'writer').id, byName(run, 'helper').id]);
    const crasher = byName(run, DEMO.crashed);
    expect(crasher.status).toBe('failed');
    expect(crasher.failure?.kind).toBe('crashed');
    expect(crasher.failure?.message).toBe(DEMO.crashMessage);
    expect(crasher.failure?.error?.cause?.code).toBe('E_SANDBOX');
    expect(crasher.failure?.error?.cause?.cause?.message).toBe('out of memory');
    expect(crasher.failure?.discarded).toEqual({ ops: 1, descendants: 0 });
    expect(crasher.endedAt! - crasher.spawnedAt).toBe(8);
  });

  it('recordRun - merges, rejections and the ops that reached the book are attributed to their sessions', async () => {
    const { recording, rt } = await demoRun();
    const run = recording.runs[0]!;
    const [planner, writer, helper, editor, crasher] = ['planner', 'writer', 'helper', DEMO.conflicted, DEMO.crashed].map((n) =>
      byName(run, n),
    );
    expect(helper!.merge).toMatchObject({ into: writer!.id, ops: 1 });
    expect(writer!.merge).toMatchObject({ into: planner!.id, ops: 2 });
    expect(planner!.merge).toMatchObject({ into: 'root', revision: rt.revision });
    expect(editor!.rejection?.conflicts).toEqual([expect.objectContaining({ type: 'UPDATE', skillId: SEED_ID, reason: 'removed' })]);
    expect(editor!.failure?.kind).toBe('conflict');
    expect(crasher!.landed).toEqual([]);
    expect(helper!.landed).toEqual([
      { revision: rt.revision, ops: [expect.objectContaining({ type: 'ADD', issue: 'cache schema lookups' })] },
    ]);
    const landed = run.sessions.flatMap((s) => s.landed.flatMap((e) => e.ops));
    expect(landed).toHaveLength(rt.audit.flatMap((e) => e.ops).length);
  });

  it("recordRun - what each session was charged, its descendants' charges included, whether it committed or failed", async () => {
    const { recording } = await demoRun();
    const run = recording.runs[0]!;
    for (const [name, charged] of Object.entries(DEMO.charged)) expect(byName(run, name).charged, name).toEqual(charged);
    expect(byName(run, DEMO.conflicted).charged).toEqual({ tokens: 0, requests: 0 });
  });

  it('recordRun - an inspection tap adds the machine states (draining) and the root supervisor', async () => {
    const { recording } = await demoRun();
    const run = recording.runs[0]!;
    expect(byName(run, 'writer').states.map((s) => s.state)).toEqual(['running', 'draining', 'committing', 'committed']);
    expect(byName(run, DEMO.crashed).states.map((s) => s.state)).toEqual(['running', 'failed']);
    expect(run.supervisor).toMatchObject({ state: 'open', inFlight: 0, waiting: 0 });
  });

  it('recordRun - without a tap the states come from the events alone', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt);
    await rt.run(async (s: Session) => {
      void s.spawn(async (c: Session) => c.tools.add_skill({ section: 'harness', issue: 'late child', insight: 'x' }));
    });
    const run = recorder.stop().runs[0]!;
    expect(run.sessions[0]!.states.map((s) => s.state)).toEqual(['running', 'committing', 'committed']);
    expect(run.supervisor).toBeNull();
    await rt.close();
  });

  it('recordRun - the book before and after, as a diff of skills', async () => {
    const { recording } = await demoRun();
    const book = recording.runs[0]!.book!;
    expect(book.before).toEqual({ revision: 1, skills: 1 });
    expect(book.counts).toEqual({ added: 3, removed: 1, changed: 0, unchanged: 0 });
    expect(book.removed.map((s) => s.id)).toEqual([SEED_ID]);
    expect(book.added.map((s) => s.issue)).not.toContain('must never reach the book');
  });

  it('recording - is serialisable JSON that parses back to the same value', async () => {
    const { recording } = await demoRun();
    const text = JSON.stringify(recording);
    const parsed = parseRecording(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.recording).toEqual(JSON.parse(text));
    expect(RecordingSchema.safeParse(recording).success).toBe(true);
    const bad = parseRecording(JSON.stringify({ ...recording, runs: [{ id: 1 }] }));
    expect(bad).toMatchObject({ ok: false, message: expect.stringContaining('runs.0') });
    expect(parseRecording('{')).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
  });

  it('recording - a snapshot taken mid-run is not changed by what happens after', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt);
    let snapshot: ReturnType<RunRecorder['recording']> | null = null;
    await rt.run(async (s: Session) => {
      await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
      snapshot = recorder.recording();
    });
    expect(snapshot!.runs[0]!.sessions[0]!.status).toBe('running');
    expect(recorder.recording().runs[0]!.sessions[0]!.status).toBe('committed');
    await rt.close();
  });

  it('RunRecorder - a run ends when its runtime closes; store notices are recorded with when they were seen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-report-'));
    try {
      const opened = await FileStore.open(join(dir, 'skillbook.json'));
      if (!opened.ok) throw new Error('open failed');
      const rt = createRuntime({ store: opened.store });
      const recorder = new RunRecorder();
      const runId = recorder.attach(rt, { label: 'durable' });
      await rt.run(async (s: Session) => s.tools.add_skill({ section: 'harness', issue: 'durable', insight: 'yes' }));
      expect(recorder.run(runId)!.endedAt).toBeNull();
      await rt.close();
      const run = recorder.run(runId)!;
      expect(run.endedAt).not.toBeNull();
      expect(run.notices.map((n) => n.notice.type)).toContain('store.saved');
      expect(run.book?.counts.added).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('RunRecorder - two runtimes attached to one recorder are two runs, their session ids kept apart', async () => {
    const recorder = new RunRecorder({ title: 'two' });
    for (const label of ['first', 'second']) {
      const rt = createRuntime({ runtimeId: 'rt' });
      recorder.attach(rt, { label });
      await rt.run(async (s: Session) => s.tools.add_skill({ section: 'harness', issue: label, insight: 'x' }));
      await rt.close();
    }
    const { runs } = recorder.stop();
    expect(runs.map((r) => [r.id, r.label, r.sessions.map((s) => s.id)])).toEqual([
      ['r1', 'first', ['rt.1']],
      ['r2', 'second', ['rt.1']],
    ]);
  });

  it('RunRecorder - stop() releases the runtime: later events are not recorded', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt);
    await rt.run(async () => 'one');
    const stopped = recorder.stop();
    await rt.run(async () => 'two');
    expect(stopped.runs[0]!.sessions).toHaveLength(1);
    expect(recorder.recording().runs[0]!.sessions).toHaveLength(1);
    await rt.close();
  });
});
