import { describe, expect, it } from 'vitest';
import { BudgetAccount, defaultLimits } from '@cohort/runtime';
import { admitSession, openAccount } from '../src/internal/admitSession.ts';
import type { AdmittingParent } from '../src/internal/admitSession.ts';
import type { SessionState } from '../src/sessionMachine.ts';
import { formatSessionId } from '../src/SessionId.ts';

function parent(state: SessionState, childCount = 0, depth = 0): AdmittingParent {
  return {
    id: formatSessionId('t', 1),
    depth,
    state,
    childCount,
    endedReason: () => (state === 'running' ? null : 'session t.1 has ended; the call was not applied'),
  };
}

const admit = (p: AdmittingParent | null, extra: Partial<Parameters<typeof admitSession>[0]> = {}) =>
  admitSession({ parent: p, options: {}, isRetry: false, limits: defaultLimits, live: 0, ...extra });

describe('admitSession - a refusal value, never a throw', () => {
  it('admitSession - a running parent within the limits may spawn', () => {
    expect(admit(parent('running'))).toBeNull();
    expect(admit(null)).toBeNull();
  });

  it('admitSession - bad options are refused as limit_exceeded, naming the option', () => {
    expect(admit(null, { options: { timeoutMs: -5 } })).toMatchObject({
      kind: 'limit_exceeded',
      category: 'error',
      message: expect.stringContaining('timeoutMs'),
    });
  });

  it('admitSession - a parent whose body returned may only start a retry; a settled one nothing', () => {
    expect(admit(parent('draining'))).toMatchObject({ kind: 'cancelled', category: 'interruption' });
    expect(admit(parent('draining'), { isRetry: true })).toBeNull();
    expect(admit(parent('failed'), { isRetry: true })).toMatchObject({ kind: 'cancelled', message: expect.stringContaining('has ended') });
  });

  it('admitSession - depth, children and sessions limits', () => {
    expect(admit(parent('running', 0, 2))?.message).toMatch(/maxDepth 2/);
    expect(admit(parent('running', 3), { limits: { ...defaultLimits, maxChildren: 3 } })?.message).toMatch(/maxChildren 3/);
    expect(admit(null, { live: 5, limits: { ...defaultLimits, maxSessions: 5 } })?.message).toMatch(/maxSessions 5/);
  });

  it('openAccount - a carve that does not fit is a budget_exhausted refusal', () => {
    const root = BudgetAccount.root({ tokens: 5 });
    expect(openAccount(null, { budget: { tokens: 10 } }, root)).toMatchObject({
      kind: 'budget_exhausted',
      message: expect.stringContaining('asked for 10 tokens'),
    });
    expect(openAccount(null, { budget: { tokens: 3 } }, root)).toBeInstanceOf(BudgetAccount);
  });
});
