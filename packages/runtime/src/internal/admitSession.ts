import { BudgetAccount } from '../Budget.ts';
import type { FailureSeed } from '../FailureSeed.ts';
import { failureSeed } from '../FailureSeed.ts';
import type { Limits } from '../Limits.ts';
import type { SpawnOptions } from '../Session.ts';
import { SpawnOptionsSchema } from '../SpawnOptionsSchema.ts';
import type { SessionNode } from './SessionNode.ts';

/** What admission looks at of the parent. */
export type AdmittingParent = Pick<SessionNode, 'id' | 'depth' | 'state' | 'childCount' | 'endedReason'>;

/** What admission looks at. */
export interface Admission {
  readonly parent: AdmittingParent | null;
  readonly options: SpawnOptions<unknown>;
  /** A retry of a failed child: its parent may be waiting for its children already. */
  readonly isRetry: boolean;
  readonly limits: Limits;
  /** Live sessions in the runtime. */
  readonly live: number;
}

/**
 * Whether a session may be spawned: null when it may, otherwise the refusal (bad options, a
 * parent that can no longer spawn, a broken limit). A refused spawn is a failed outcome of its
 * own; it never fails the caller.
 *
 * @example
 * admitSession({ parent: null, options: { timeoutMs: -1 }, isRetry: false, limits: defaultLimits, live: 0 })?.kind; // 'limit_exceeded'
 */
export function admitSession({ parent, options, isRetry, limits, live }: Admission): FailureSeed | null {
  const parsed = SpawnOptionsSchema.safeParse(options);
  if (!parsed.success) {
    return failureSeed(
      'limit_exceeded',
      `invalid spawn options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const name = parsed.data.name;
  if (name !== undefined && name.length > limits.maxIdLength) {
    const message = `invalid spawn options: name: ${name.length} characters; at most ${limits.maxIdLength} (limits.maxIdLength)`;
    return failureSeed('limit_exceeded', message);
  }
  if (parent && !mayParentSpawn(parent, isRetry)) {
    return failureSeed('cancelled', `parent session ${parent.id} can no longer spawn: ${parent.endedReason() ?? 'it has ended'}`);
  }
  const depth = parent ? parent.depth + 1 : 0;
  if (depth > limits.maxDepth)
    return failureSeed('limit_exceeded', `maxDepth ${limits.maxDepth} reached: a session at depth ${depth} may not be spawned`);
  if (parent && parent.childCount >= limits.maxChildren) {
    return failureSeed('limit_exceeded', `maxChildren ${limits.maxChildren} reached: session ${parent.id} has that many live children`);
  }
  if (live >= limits.maxSessions)
    return failureSeed('limit_exceeded', `maxSessions ${limits.maxSessions} reached: that many sessions are live`);
  return null;
}

/**
 * The new session's budget account, carved from its parent's (or the runtime's); the refusal
 * when it does not fit.
 *
 * @example
 * openAccount(null, { budget: { tokens: 10 } }, BudgetAccount.root({ tokens: 5 })); // a budget_exhausted seed
 */
export function openAccount(
  parent: Pick<SessionNode, 'budget'> | null,
  options: SpawnOptions<unknown>,
  runtimeBudget: BudgetAccount,
): BudgetAccount | FailureSeed {
  const account = (parent?.budget ?? runtimeBudget).open(options.budget);
  if (account instanceof BudgetAccount) return account;
  return failureSeed(
    'budget_exhausted',
    `budget exhausted: the child asked for ${account.asked} ${account.meter}, its parent has ${account.remaining} left`,
  );
}

/** A body that runs may spawn; a retry may also start while its parent waits for its children. */
function mayParentSpawn(parent: AdmittingParent, isRetry: boolean): boolean {
  const state = parent.state;
  return state === 'running' || (isRetry && state === 'draining');
}
