/**
 * Applied ops as this package makes them: ACE's operation JSON shape and key order
 * (`type, section, issue, keywords, insight, skill_id, metadata, reason, insight_source`),
 * plus `at`; frozen, and remembered in the replay cache with what they did.
 */
import type { ParsedOperation } from '../../parseOperation.ts';
import type { AppliedOp, InsightSource } from '../../types.ts';
import { freezeWithEffect } from './replayCache.ts';
import type { OpEffect } from './replayCache.ts';

/** The fields of an applied op, as an operation rule decided them. */
export interface AppliedFields {
  readonly section: string;
  readonly skill_id: string;
  readonly issue?: string | null;
  readonly keywords?: readonly string[] | null;
  readonly insight?: string | null;
  readonly sources: readonly InsightSource[];
  readonly at: string;
  /** A TAG: its metadata is written. */
  readonly tag?: boolean;
}

/** A frozen list: the list itself when it is frozen already (a new skill's lists are), else a frozen copy. */
function frozenList<T>(list: readonly T[]): readonly T[] {
  return Object.isFrozen(list) ? list : Object.freeze([...list]);
}

/**
 * The usual ADD (issue, keywords and insight; nothing else), with the keys in the order below.
 * A plain object — its prototype is `Object.prototype`, as a literal's — made with `new`: V8
 * sizes what a constructor makes to what it comes to hold, so the effect `freezeWithEffect`
 * stamps on it stays in the object; a literal is sized to its keys, and the stamp takes a
 * property array of its own, one more object kept per op for as long as the audit keeps it.
 * Bench row 2c (peak memory of a fan-out: one applied op per write).
 */
function ContentOp(
  this: Record<string, unknown>,
  type: string,
  section: string,
  issue: string,
  keywords: readonly string[],
  insight: string,
  skill_id: string,
  at: string,
): void {
  this['type'] = type;
  this['section'] = section;
  this['issue'] = issue;
  this['keywords'] = keywords;
  this['insight'] = insight;
  this['skill_id'] = skill_id;
  this['at'] = at;
}
ContentOp.prototype = Object.prototype;
const NewContentOp = ContentOp as unknown as new (...fields: Parameters<typeof ContentOp>) => AppliedOp;

/** The applied op for `op` with fields `f`, not yet frozen. */
export function appliedFor(op: ParsedOperation, f: AppliedFields): AppliedOp {
  const { issue, keywords, insight } = f;
  if (issue && keywords && Object.isFrozen(keywords) && insight && !f.tag && op.reason === null && f.sources.length === 0) {
    return new NewContentOp(op.type, f.section, issue, keywords, insight, f.skill_id, f.at);
  }
  // key by key in ACE's order, then typed once, rather than conditional spreads: bench rows 3 and 5
  const out: Record<string, unknown> = { type: op.type, section: f.section };
  if (issue !== null && issue !== undefined) out['issue'] = issue;
  if (keywords) out['keywords'] = frozenList(keywords);
  if (insight !== null && insight !== undefined) out['insight'] = insight;
  out['skill_id'] = f.skill_id;
  if (f.tag) out['metadata'] = tagMetadata(op);
  if (op.reason !== null) out['reason'] = op.reason;
  if (f.sources.length > 0) out['insight_source'] = frozenList(f.sources);
  out['at'] = f.at;
  return out as unknown as AppliedOp;
}

/** Freezes a new applied op with what it did (see `replayCache.ts`). */
export function sealApplied(op: AppliedOp, effect: OpEffect): AppliedOp {
  return freezeWithEffect(op, effect);
}

/** Whether two applied ops this package made say the same (they are then built alike, key order included). */
export function sameApplied(a: AppliedOp, b: AppliedOp): boolean {
  return (
    a.type === b.type &&
    a.section === b.section &&
    a.skill_id === b.skill_id &&
    a.at === b.at &&
    a.issue === b.issue &&
    a.insight === b.insight &&
    a.reason === b.reason &&
    sameItems(a.keywords, b.keywords) &&
    sameItems(a.insight_source, b.insight_source) &&
    sameCounts(a.metadata, b.metadata)
  );
}

/** Equal lists of text or sources (sources by identity: canonical sources are shared). */
function sameItems<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Equal TAG metadata: the same keys in the same order with the same values. */
function sameCounts(a: Readonly<Record<string, number>> | undefined, b: Readonly<Record<string, number>> | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** The metadata of a TAG that says nothing but its direction, one frozen object per direction. */
const DELTA_ONLY: Readonly<Record<-1 | 0 | 1, Readonly<Record<string, number>>>> = Object.freeze({
  [-1]: Object.freeze({ delta: -1 }),
  [0]: Object.freeze({ delta: 0 }),
  [1]: Object.freeze({ delta: 1 }),
});

/** Whether TAG metadata holds nothing but (at most) `delta`. */
function deltaOnly(metadata: Readonly<Record<string, number>>): boolean {
  for (const key in metadata) if (key !== 'delta') return false;
  return true;
}

/** TAG metadata as applied: `delta` normalised to its sign, other integer entries kept. */
function tagMetadata(op: ParsedOperation): Readonly<Record<string, number>> {
  if (deltaOnly(op.metadata)) return DELTA_ONLY[op.delta];
  const entries = Object.entries(op.metadata)
    .filter(([key, value]) => key === 'delta' || Number.isSafeInteger(value))
    .map(([key, value]): [string, number] => [key, key === 'delta' ? op.delta : value]);
  if (!entries.some(([key]) => key === 'delta')) entries.unshift(['delta', op.delta]);
  return Object.freeze(Object.fromEntries(entries));
}
