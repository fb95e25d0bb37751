import { describe, expect, it } from 'vitest';
import { DurableOptionsSchema, resolveOptions } from '../../src/DurableOptions.ts';
import type { DurableOptions } from '../../src/DurableOptions.ts';

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
