import type { Session } from '@cohort/runtime';
import { started } from './bodies.ts';

/** What a leaf is asked to charge, and the budget its spawn gives it (none: it spends from its parent's). */
export interface LeafInput {
  readonly issue: string;
  readonly tokens: number;
  readonly budget?: number;
}

/** A child body that charges `tokens` and one request, then writes a skill (a refused charge ends it first). */
export async function leaf(s: Session<LeafInput>): Promise<string> {
  s.charge({ tokens: s.input.tokens, requests: 1 });
  const added = await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: `paid ${s.input.tokens}` });
  if ('error' in added) throw new Error(added.error);
  return added.skill_id;
}

/** A finite remaining amount, or null (unlimited): recordable as JSON. */
function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

/** What a session has left now. */
export function leftOf(s: Session): { tokens: number | null; requests: number | null } {
  const left = s.charge({});
  return left.ok ? { tokens: finite(left.remaining.tokens), requests: finite(left.remaining.requests) } : { tokens: null, requests: null };
}

/** Spawns registered leaves, then says how each ended and what it has left once they all settled. */
export async function spender(s: Session<{ readonly leaves: readonly LeafInput[] }>): Promise<unknown> {
  const outcomes = await Promise.all(
    s.input.leaves.map((input) =>
      s.spawn(leaf, { input, name: input.issue, ...(input.budget !== undefined ? { budget: { tokens: input.budget } } : {}) }),
    ),
  );
  return { ended: outcomes.map((o) => (o.status === 'committed' ? 'committed' : o.failure.kind)), left: leftOf(s) };
}

/**
 * A root that spawns a registered spender with 1,000 tokens and 10 requests: one leaf within
 * its own budget, one over its own budget, one spending from the spender's.
 */
export async function budgeted(s: Session): Promise<unknown> {
  const leaves: LeafInput[] = [
    { issue: 'within', tokens: 200, budget: 300 },
    { issue: 'over', tokens: 400, budget: 300 },
    { issue: 'shared', tokens: 100 },
  ];
  const o = await s.spawn(spender, { input: { leaves }, name: 'spender', budget: { tokens: 1_000, requests: 10 } });
  return o.status === 'committed' ? o.output : { failed: o.failure.kind, message: o.failure.message };
}

/** What a flaky child is asked to do. */
export interface FlakyInput {
  readonly issue: string;
  /** The first attempt that succeeds; the ones before it throw. */
  readonly succeedsOn: number;
  /** Tokens each attempt charges. */
  readonly tokens: number;
  /** An attempt that sleeps `holdMs` first (the kill test kills its worker then). */
  readonly holdOn?: number;
  readonly holdMs?: number;
}

/** A child body that logs each start as `<issue> #<attempt>`, charges, and fails until attempt `succeedsOn`. */
export async function flaky(s: Session<FlakyInput>): Promise<number> {
  await started.hook(`${s.input.issue} #${s.attempt}`);
  s.charge({ tokens: s.input.tokens });
  if (s.attempt === s.input.holdOn) await s.sleep(s.input.holdMs ?? 0);
  if (s.attempt < s.input.succeedsOn) {
    throw new Error(`attempt ${s.attempt} failed`, { cause: Object.assign(new Error('the service said no'), { code: 'E_NO' }) });
  }
  const added = await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: `attempt ${s.attempt} held` });
  if ('error' in added) throw new Error(added.error);
  return s.attempt;
}

/** What a retrying root is asked to do. */
export interface RetryRootInput extends FlakyInput {
  readonly attempts: number;
  readonly on?: readonly ('crashed' | 'conflict' | 'timeout')[];
}

/**
 * A root whose in-process child (1,000 tokens) spawns a registered flaky child with `retry`:
 * returns how the flaky child ended (its attempt, its error's cause chain) and what the
 * in-process child had left after it.
 */
export async function retryRoot(s: Session<RetryRootInput>): Promise<unknown> {
  const { attempts, on, ...input } = s.input;
  const wrapper = await s.spawn(
    async (w) => {
      const o = await w.spawn(flaky, { input, name: input.issue, retry: { attempts, ...(on ? { on: [...on] } : {}) } });
      const ended =
        o.status === 'committed'
          ? { status: 'committed', output: o.output, attempt: o.attempt }
          : { status: 'failed', kind: o.failure.kind, attempt: o.failure.attempt, error: o.failure.error ?? null };
      return { ...ended, left: leftOf(w).tokens };
    },
    { name: 'wrapper', budget: { tokens: 1_000 } },
  );
  return wrapper.status === 'committed' ? wrapper.output : { failed: wrapper.failure.kind, message: wrapper.failure.message };
}

/** The bodies of the budget and retry tests, registered beside the others. */
export const budgetBodies = { leaf, spender, budgeted, flaky, retryRoot };
