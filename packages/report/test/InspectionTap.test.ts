import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import type { InspectionEvent } from 'xstate';
import { createInspectionTap } from '../src/index.ts';
import type { MachineStateChange } from '../src/index.ts';

describe('createInspectionTap', () => {
  it('createInspectionTap - each session machine state once, in order; the root supervisor; every event forwarded', async () => {
    const forwarded: InspectionEvent[] = [];
    const tap = createInspectionTap({ forward: (e) => forwarded.push(e) });
    const changes: MachineStateChange[] = [];
    tap.changes$.subscribe((c) => changes.push(c));
    const rt = createRuntime({ inspect: tap.inspect, runtimeId: 'rt' });
    expect(tap.supervisor).toMatchObject({ state: 'open', inFlight: 0, waiting: 0 });
    await rt.run(
      async (s: Session) => {
        void s.spawn(async (c: Session) => c.tools.add_skill({ section: 'harness', issue: 'child', insight: 'x' }), { name: 'child' });
      },
      { name: 'root' },
    );
    await rt.close();
    const states = (id: string) => changes.flatMap((c) => (c.kind === 'session' && c.sessionId === id ? [c.state] : []));
    expect(states('rt.1')).toEqual(['running', 'draining', 'committing', 'committed']);
    expect(states('rt.2')).toEqual(['running', 'committing', 'committed']);
    expect(changes.some((c) => c.kind === 'supervisor' && c.inFlight === 1)).toBe(true);
    expect(tap.supervisor).toMatchObject({ state: 'closed' });
    expect(forwarded.some((e) => e.type === '@xstate.event')).toBe(true);
    expect(forwarded.length).toBeGreaterThan(changes.length);
  });
});
