import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { liveDescendants, SessionRegistry } from '../src/internal/SessionRegistry.ts';
import type { WithChildren } from '../src/internal/SessionRegistry.ts';

const tree = (...children: WithChildren[]): WithChildren => ({ children: () => children });

describe("SessionRegistry - the runtime's own record of live sessions", () => {
  it('SessionRegistry - ids are the runtime id and a counter, handed out in order and never reused', () => {
    const registry = new SessionRegistry('k3v9x2m8q4');
    expect([registry.newId(), registry.newId(), registry.newId()]).toEqual(['k3v9x2m8q4.1', 'k3v9x2m8q4.2', 'k3v9x2m8q4.3']);
  });

  it('liveDescendants - counts every live session under a node, at any depth', () => {
    expect(liveDescendants(tree())).toBe(0);
    expect(liveDescendants(tree(tree(tree(), tree()), tree()))).toBe(4);
  });

  it('SessionRegistry - a settled session leaves the registry: nothing is live once every run settled', async () => {
    const rt = createRuntime();
    let during = 0;
    await rt.run(async (s) => {
      await Promise.all([
        s.spawn(async () => 'a'),
        s.spawn(async () => {
          during = rt.liveSessions;
        }),
      ]);
    });
    expect(during).toBe(3);
    expect(rt.liveSessions).toBe(0);
    await rt.close();
  });
});
