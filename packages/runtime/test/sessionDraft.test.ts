import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../src/index.ts';
import { adoptCommit, createRuntime, draftView, failSession } from '../src/index.ts';

describe('draftView', () => {
  it("gives the ops of a session's draft since its start, without splitting its audit block", async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => {
      await s.tools.add_skill({ section: 'harness', issue: 'a', insight: 'one' });
      const view = draftView(s);
      await s.tools.add_skill({ section: 'harness', issue: 'b', insight: 'two' });
      return { base: view?.baseRevision, revision: view?.revision, ops: view?.ops.map((op) => op.type) };
    });
    expect(outcome).toMatchObject({ status: 'committed', output: { base: 0, revision: 1, ops: ['ADD'] } });
    expect(rt.audit).toHaveLength(1);
    expect(rt.audit[0]?.ops).toHaveLength(2);
    await rt.close();
  });

  it('is null for a session this runtime did not make', () => {
    expect(draftView({} as never)).toBeNull();
  });
});

describe('adoptCommit', () => {
  it("merges a copy's work done elsewhere into the session's draft, its blocks attributed as they were", async () => {
    const rt = createRuntime();
    const elsewhere = createRuntime();
    let entries: readonly AuditEntry[] = [];
    const outcome = await rt.run(async (s) => {
      const view = draftView(s);
      if (!view) throw new Error('no view');
      // the copy: another runtime on the same book, whose commit is brought home
      const copy = await elsewhere.run(async (c) =>
        c.tools.add_skill({ section: 'harness', issue: 'learned elsewhere', insight: 'far away' }),
      );
      if (copy.status !== 'committed') throw new Error('the copy failed');
      entries = elsewhere.audit;
      return adoptCommit(s, { baseRevision: view.revision, entries: elsewhere.audit, descendants: 0 });
    });
    expect(outcome).toMatchObject({ status: 'committed', output: { ok: true, revision: 1, added: [expect.stringMatching(/^harness-/)] } });
    expect(rt.book.size).toBe(1);
    expect(rt.audit.map((e) => e.sessionId)).toEqual(entries.map((e) => e.sessionId));
    await rt.close();
    await elsewhere.close();
  });

  it("refuses the whole commit when the draft changed what it touches since the copy's view", async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => {
      const added = await s.tools.add_skill({ section: 'harness', issue: 'shared', insight: 'v1' });
      if ('error' in added) throw new Error(added.error);
      const view = draftView(s);
      if (!view) throw new Error('no view');
      const copy = createRuntime({ book: s.book });
      await copy.run(async (c) => c.tools.update_skill({ skill_id: added.skill_id, insight: 'v2 elsewhere' }));
      await s.tools.update_skill({ skill_id: added.skill_id, insight: 'v2 here' });
      const adopted = adoptCommit(s, { baseRevision: view.revision, entries: copy.audit, descendants: 0 });
      await copy.close();
      return { adopted, insight: s.book.get(added.skill_id)?.insight };
    });
    expect(outcome).toMatchObject({ status: 'committed', output: { adopted: { ok: false, code: 'conflict' }, insight: 'v2 here' } });
    await rt.close();
  });

  it('refuses a session that has ended, and one of another runtime', async () => {
    const rt = createRuntime();
    let ended: Parameters<typeof adoptCommit>[0] | null = null;
    await rt.run(async (s) => void (ended = s));
    if (!ended) throw new Error('no session');
    expect(adoptCommit(ended, { baseRevision: 0, entries: [], descendants: 0 })).toMatchObject({ ok: false, code: 'session_ended' });
    expect(adoptCommit({} as never, { baseRevision: 0, entries: [], descendants: 0 })).toMatchObject({ ok: false, code: 'session_ended' });
    await rt.close();
  });
});

describe('failSession', () => {
  it("ends a session with the failure its copy had elsewhere, cause chain kept, and its spawn's retry rule applies to that kind", async () => {
    const rt = createRuntime();
    const attempts: number[] = [];
    const error = {
      name: 'Error',
      message: 'refused by the service',
      cause: { name: 'Error', message: 'connection reset', code: 'ECONNRESET' },
    };
    const outcome = await rt.run(async (root) =>
      root.spawn(
        async (s) => {
          attempts.push(s.attempt);
          failSession(s, { kind: s.attempt === 1 ? 'timeout' : 'budget_exhausted', category: 'interruption', message: 'far away', error });
        },
        { retry: { attempts: 3 } },
      ),
    );
    // a timeout is retried by default, budget_exhausted is not
    expect(attempts).toEqual([1, 2]);
    expect(outcome).toMatchObject({
      status: 'committed',
      output: { status: 'failed', failure: { kind: 'budget_exhausted', category: 'interruption', message: 'far away', error, attempt: 2 } },
    });
    await rt.close();
  });

  it('leaves a session that is no longer running as it is', async () => {
    const rt = createRuntime();
    let kept: boolean | undefined;
    const outcome = await rt.run(async (root) => {
      let child: Parameters<typeof failSession>[0] | undefined;
      const o = await root.spawn(async (s) => void (child = s));
      if (child) kept = failSession(child, { kind: 'crashed', category: 'error', message: 'too late' });
      return o.status;
    });
    expect(outcome).toMatchObject({ status: 'committed', output: 'committed' });
    expect(kept).toBe(false);
    expect(failSession({} as never, { kind: 'crashed', category: 'error', message: 'not ours' })).toBe(false);
    await rt.close();
  });
});
