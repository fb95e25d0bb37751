import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, SessionFailure } from '@cohort/runtime';
import { UnitPlacement } from '../../src/internal/UnitPlacement.ts';

const place = {
  unitId: 'run-1/0.2',
  worker: 'w2',
  runtimeId: 'dchild',
  home: { sessionId: 'droot.3', path: ['droot.1', 'droot.3'] },
  calls: true,
};
const ev = (e: object) => e as RuntimeEvent;
const failure = (sessionId: string, path: string[], message: string) =>
  ({
    kind: 'crashed',
    category: 'error',
    sessionId,
    path,
    message,
    discarded: { ops: 0, descendants: 0 },
    attempt: 1,
    at: 5,
  }) as SessionFailure;

describe('UnitPlacement', () => {
  it("puts a child unit's sessions under its home, on its worker", () => {
    const p = new UnitPlacement(place);
    expect(
      p.map(ev({ type: 'session.spawned', sessionId: 'dchild.1', path: ['dchild.1'], at: 1, parentId: null, depth: 0, attempt: 1 })),
    ).toEqual({
      type: 'session.spawned',
      sessionId: 'droot.3',
      path: ['droot.1', 'droot.3'],
      at: 1,
      parentId: 'droot.1',
      depth: 1,
      attempt: 1,
      worker: 'w2',
      unit: 'run-1/0.2',
    });
    expect(
      p.map(
        ev({
          type: 'session.merged',
          sessionId: 'dchild.2',
          path: ['dchild.1', 'dchild.2'],
          at: 2,
          into: 'dchild.1',
          revision: 1,
          ops: 1,
          dropped: [],
        }),
      ),
    ).toMatchObject({
      sessionId: 'dchild.2',
      path: ['droot.1', 'droot.3', 'dchild.2'],
      into: 'droot.3',
      worker: 'w2',
    });
    const failed = p.map(
      ev({ type: 'session.failed', sessionId: 'dchild.1', path: ['dchild.1'], at: 5, failure: failure('dchild.1', ['dchild.1'], 'boom') }),
    );
    expect(failed).toMatchObject({
      sessionId: 'droot.3',
      failure: { sessionId: 'droot.3', path: ['droot.1', 'droot.3'], message: 'boom' },
    });
  });

  it("drops what happened inside the unit's own runtime: its commit to its in-memory store, that store's notices", () => {
    const p = new UnitPlacement(place);
    expect(p.map(ev({ type: 'session.committed', sessionId: 'dchild.1', path: ['dchild.1'], at: 3, ops: 2, baseRevision: 0 }))).toBeNull();
    expect(
      p.map(
        ev({ type: 'session.merged', sessionId: 'dchild.1', path: ['dchild.1'], at: 4, into: 'root', revision: 1, ops: 2, dropped: [] }),
      ),
    ).toBeNull();
    expect(p.map(ev({ type: 'store.io_failed', at: 4 }))).toBeNull();
    // the run's root keeps its commit (its landing is reported by the run)
    const root = new UnitPlacement({ ...place, unitId: 'run-1', runtimeId: 'droot', home: undefined });
    expect(
      root.map(ev({ type: 'session.committed', sessionId: 'droot.1', path: ['droot.1'], at: 3, ops: 2, baseRevision: 0 })),
    ).toMatchObject({ worker: 'w2', unit: 'run-1' });
  });

  it("a proxy's events name no worker, and its failure is its child unit's", () => {
    const p = new UnitPlacement({ ...place, unitId: 'run-1', runtimeId: 'droot', home: undefined });
    p.expectProxy('droot.1');
    const spawned = p.map(
      ev({ type: 'session.spawned', sessionId: 'droot.3', path: ['droot.1', 'droot.3'], at: 1, parentId: 'droot.1', depth: 1, attempt: 1 }),
    );
    expect(spawned).not.toHaveProperty('worker');
    expect(spawned).toMatchObject({ unit: 'run-1' });
    // the next spawn of the same parent is an in-process child again
    expect(
      p.map(
        ev({
          type: 'session.spawned',
          sessionId: 'droot.4',
          path: ['droot.1', 'droot.4'],
          at: 1,
          parentId: 'droot.1',
          depth: 1,
          attempt: 1,
        }),
      ),
    ).toMatchObject({ worker: 'w2' });
    p.proxyFailed('droot.3', failure('droot.3', ['droot.1', 'droot.3'], 'the child gave up'));
    const failed = p.map(
      ev({
        type: 'session.failed',
        sessionId: 'droot.3',
        path: ['droot.1', 'droot.3'],
        at: 6,
        failure: failure('droot.3', ['droot.1', 'droot.3'], 'child unit failed'),
      }),
    );
    expect(failed).toMatchObject({ failure: { message: 'the child gave up' } });
    expect(failed).not.toHaveProperty('worker');
  });

  it('keeps model and tool calls only when asked; a defect names the worker', () => {
    const call = ev({ type: 'session.call', sessionId: 'dchild.1', path: ['dchild.1'], at: 1, call: { type: 'tool', name: 'x' } });
    expect(new UnitPlacement({ ...place, calls: false }).map(call)).toBeNull();
    expect(new UnitPlacement(place).map(call)).toMatchObject({ sessionId: 'droot.3' });
    expect(new UnitPlacement(place).map(ev({ type: 'runtime.defect', at: 1, error: { name: 'Error', message: 'x' } }))).toMatchObject({
      worker: 'w2',
      unit: 'run-1/0.2',
    });
  });
});
