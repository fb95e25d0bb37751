import { describe, expect, it } from 'vitest';
import { DurableOptionsSchema, resolveOptions } from '../../src/DurableOptions.ts';
import type { DurableOptions } from '../../src/DurableOptions.ts';
import { isDurableError, openDurable } from '../../src/index.ts';
import { concurrencyAt } from '../../src/QueueConcurrency.ts';
import type { Store } from '@cohort/store';

const base = { systemDatabaseUrl: 'postgres://127.0.0.1:5432/app_dbos' };

describe('DurableOptions', () => {
  it('takes over a dead worker 15 s after its last heartbeat by default, beating every 2 s', () => {
    const resolved = resolveOptions({ ...base } as DurableOptions);
    expect([resolved.heartbeatMs, resolved.takeoverAfterMs]).toEqual([2_000, 15_000]);
  });

  it('refuses a takeover bound under three heartbeats (a live worker would be taken over), naming the option', () => {
    const parsed = DurableOptionsSchema.safeParse({ ...base, heartbeatMs: 1_000, takeoverAfterMs: 2_000 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['takeoverAfterMs']);
    expect(DurableOptionsSchema.safeParse({ ...base, heartbeatMs: 1_000, takeoverAfterMs: 3_000 }).success).toBe(true);
    expect(DurableOptionsSchema.safeParse({ ...base, takeoverAfterMs: 0 }).success, '0: never take over').toBe(true);
  });
});

describe('DurableOptions - concurrency', () => {
  it('runs 8 children of each depth at once on each worker, with no global bound, by default', () => {
    expect([1, 2].map((d) => concurrencyAt({}, d))).toEqual([{ workerConcurrency: 8 }, { workerConcurrency: 8 }]);
  });

  it("gives a queue its own limits over the options', and caps the default worker limit at the global one", () => {
    const options = { workerConcurrency: 4, globalConcurrency: 12, queues: { 2: { globalConcurrency: 3, workerConcurrency: 1 } } };
    expect(concurrencyAt(options, 1)).toEqual({ workerConcurrency: 4, globalConcurrency: 12 });
    expect(concurrencyAt(options, 2)).toEqual({ workerConcurrency: 1, globalConcurrency: 3 });
    expect(concurrencyAt({ queues: { 1: { globalConcurrency: 5 } } }, 1)).toEqual({ workerConcurrency: 5, globalConcurrency: 5 });
  });

  it.each([
    [{ workerConcurrency: 0 }, 'workerConcurrency'],
    [{ globalConcurrency: 2.5 }, 'globalConcurrency'],
    [{ workerConcurrency: 8, globalConcurrency: 4 }, 'workerConcurrency'],
    [{ queues: { 1: { workerConcurrency: 6, globalConcurrency: 2 } } }, 'queues.1.workerConcurrency'],
    [{ queues: { 3: { globalConcurrency: 2 } } }, 'queues.3'],
    [{ queues: { 1: { concurency: 2 } } }, 'queues.1'],
    [{ queues: { first: { globalConcurrency: 2 } } }, 'queues.first'],
    [{ systemDatabasePoolSize: 1 }, 'systemDatabasePoolSize'],
  ])('refuses %j, naming %s', (bad, path) => {
    const parsed = DurableOptionsSchema.safeParse({ ...base, ...bad });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual([path]);
  });

  it('openDurable throws a DURABLE_INVALID_OPTIONS error naming the queue, before it opens anything', async () => {
    const options = { ...base, store: {} as Store, bodies: {}, queues: { 2: { workerConcurrency: 9, globalConcurrency: 3 } } };
    const thrown = await openDurable(options).catch((err: unknown) => err);
    expect(isDurableError(thrown) && thrown.code).toBe('DURABLE_INVALID_OPTIONS');
    expect(String((thrown as Error).message)).toContain('queues.2.workerConcurrency');
    expect(DurableOptionsSchema.safeParse({ ...base, limits: { maxDepth: 3 }, queues: { 3: { globalConcurrency: 2 } } }).success).toBe(
      true,
    );
  });
});
