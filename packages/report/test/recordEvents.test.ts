import { describe, expect, it } from 'vitest';
import { simulate } from '@cohort/sim';
import { recordEvents, renderRunReport } from '../src/index.ts';

describe('recordEvents', () => {
  it("recordEvents - a simulation's timeline becomes one run per epoch with every session, merge and failure", async () => {
    const report = await simulate({ seed: 21 });
    const recording = recordEvents(report.timeline, { title: 'sim seed 21' });
    expect(recording.runs).toHaveLength(report.stats.epochs);
    expect(report.stats.epochs).toBeGreaterThan(1);
    expect(recording.runs.map((r) => r.label)).toEqual(Array.from({ length: report.stats.epochs }, (_, i) => `epoch ${i + 1}`));
    const sessions = recording.runs.flatMap((r) => r.sessions);
    expect(sessions).toHaveLength(report.stats.sessions);
    expect(sessions.filter((s) => s.merge !== null)).toHaveLength(report.stats.merges);
    const failures: Record<string, number> = {};
    for (const s of sessions) if (s.failure) failures[s.failure.kind] = (failures[s.failure.kind] ?? 0) + 1;
    expect(failures).toEqual(report.stats.failures);
    for (const run of recording.runs) {
      expect(run.book).toBeNull();
      expect(run.endedAt).toBe(Math.max(run.startedAt, ...run.sessions.map((s) => s.endedAt ?? 0), ...run.notices.map((n) => n.notice.at)));
    }
    expect(recording.runs.flatMap((r) => r.notices.map((n) => n.notice.type))).toContain('store.io_failed');
    expect(() => renderRunReport(recording)).not.toThrow();
  });

  it('recordEvents - entries that are not runtime events, or do not parse, are skipped', () => {
    const recording = recordEvents([
      { event: { type: 'sim.crash', mode: 'power', before: 'x' } },
      { event: { type: 'session.spawned', sessionId: 's1', path: ['s1'], at: 5, parentId: null, depth: 0, attempt: 1 } },
      { event: { type: 'session.merged', sessionId: 's1' } },
      { event: null },
    ]);
    expect(recording.runs).toHaveLength(1);
    expect(recording.runs[0]!.sessions.map((s) => [s.id, s.status])).toEqual([['s1', 'running']]);
  });

  it("recordEvents - placed events (a durable tree's) give each session its worker and its resumes, and the report holds them", () => {
    const at = (n: number) => ({ at: n });
    const root = { sessionId: 'r.1', path: ['r.1'] };
    const child = { sessionId: 'r.2', path: ['r.1', 'r.2'] };
    const recording = recordEvents(
      [
        { type: 'session.spawned', ...root, ...at(1), parentId: null, depth: 0, attempt: 1, worker: 'w1', unit: 'run-1' },
        // the child's placeholder in its parent's tree names no worker; its body on w2 does
        { type: 'session.spawned', ...child, ...at(2), parentId: 'r.1', depth: 1, attempt: 1, name: 'learn' },
        {
          type: 'session.spawned',
          ...child,
          ...at(3),
          parentId: 'r.1',
          depth: 1,
          attempt: 1,
          name: 'learn',
          worker: 'w2',
          unit: 'run-1/0.1',
        },
        { type: 'session.resumed', ...root, ...at(4), worker: 'w3', unit: 'run-1', start: 2, previous: 'w1' },
        { type: 'session.resumed', ...root, ...at(4), worker: 'w3', unit: 'run-1', start: 2, previous: 'w1' },
        { type: 'session.committed', ...child, ...at(5), ops: 1, baseRevision: 0 },
      ].map((event) => ({ event })),
    );
    const [r, c] = recording.runs[0]?.sessions ?? [];
    expect(r).toMatchObject({ id: 'r.1', worker: 'w3', resumes: [{ at: 4, worker: 'w3', start: 2, previous: 'w1' }] });
    expect(c).toMatchObject({ id: 'r.2', worker: 'w2', resumes: [], status: 'committing' });
    const html = renderRunReport(recording);
    expect(html).toContain('"previous":"w1"');
    expect(html).toContain('"worker":"w2"');
  });
});
