import { describe, expect, it } from 'vitest';
import { createRuntime, isRuntimeError } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import { formatSessionId, newRuntimeId, RuntimeIdSchema } from '../src/SessionId.ts';

describe('session ids - unique across runtimes and time', () => {
  it('formatSessionId - the runtime id and its counter', () => {
    expect(formatSessionId('k3v9x2m8q4', 17)).toBe('k3v9x2m8q4.17');
  });

  it("newRuntimeId - ten characters of the platform's random source; the same source gives the same id", () => {
    const ids = new Set(Array.from({ length: 1_000 }, () => newRuntimeId()));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(RuntimeIdSchema.safeParse(id).success && id.length === 10).toBe(true);
    const seeded = (): (() => number) => {
      let x = 0.5;
      return () => (x = (x * 9301 + 0.49297) % 1);
    };
    expect(newRuntimeId(seeded())).toBe(newRuntimeId(seeded()));
  });

  it('createRuntime - two runtimes of one store name their sessions apart; runtimeId names them as asked', async () => {
    const store = new MemoryStore();
    const [a, b] = [createRuntime({ store }), createRuntime({ store })];
    const ids = await Promise.all(
      [a, b].map(async (rt) => {
        const outcome = await rt.run(async (s) => s.id);
        return outcome.sessionId;
      }),
    );
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[0]?.startsWith(`${a.runtimeId}.`)).toBe(true);
    const named = createRuntime({ runtimeId: 'api-7' });
    expect((await named.run(async (s) => s.path)).sessionId).toBe('api-7.1');
    await Promise.all([a.close(), b.close(), named.close()]);
  });

  it('createRuntime - a runtime id that could not be told apart in a path is a programmer error', () => {
    for (const runtimeId of ['', 'a.b', 'a/b', 'with space', 'x'.repeat(65)]) {
      let thrown: unknown;
      try {
        createRuntime({ runtimeId });
      } catch (e) {
        thrown = e;
      }
      expect(isRuntimeError(thrown, 'RUNTIME_INVALID_OPTIONS'), runtimeId).toBe(true);
    }
  });
});
