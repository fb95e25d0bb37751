/**
 * The replay cache: for each applied op this package made, what applying it did. A merge
 * replays every op of a commit at each level up to the store; applying an op is a function of
 * the skill it finds and the op (its `at` included), and skills are immutable, so where a
 * replayed op finds the very skill object it found the first time (or, for an ADD, no skill
 * at all), its outcome is the skill it made then, and the same revisions move. The cache lets
 * a replay reuse that instead of applying the op again: each such op is then an entry and a
 * trie insert, and every level shares one skill object.
 *
 * Only frozen ops this package made are remembered, so an op found here is also known to be
 * valid as it is, and no copy of an op (a spread, JSON) carries the entry.
 *
 * The effect is a private field of the frozen op, stamped once before it is frozen, here and
 * nowhere else: invisible to keys, spreads, JSON and equality checks, like a non-enumerable
 * property. A field of the op rather than an entry of a `WeakMap` or a symbol-keyed property:
 * bench rows 3 and 5 (docs/internals/performance.md).
 */
import type { AppliedOp, Skill } from '../../types.ts';

/** What applying an UPDATE, TAG or REMOVE did: the skill it found, the skill it made, and which of the skill's revisions it moved. */
export interface Effect {
  readonly before: Skill;
  readonly after: Skill;
  readonly content: boolean;
  readonly active: boolean;
  readonly counters: boolean;
}

/** What an op did: an {@link Effect}, or for an ADD just the skill it made (it found none and moved every revision). */
export type OpEffect = Effect | Skill;

/** A base class whose constructor returns its argument: a subclass then adds its fields to that object. */
const Returning = function (target: object) {
  return target;
} as unknown as new (
  target: object,
) => object;

/** Stamps an op with its effect: `new Stamp(op, effect)` adds the private field to `op` itself. */
class Stamp extends Returning {
  readonly #effect: OpEffect;

  constructor(op: AppliedOp, effect: OpEffect) {
    super(op);
    this.#effect = effect;
  }

  /** The effect `op` was stamped with, if it was. */
  static read(op: object): OpEffect | undefined {
    return #effect in op ? (op as Stamp).#effect : undefined;
  }
}

/** Freezes `op` (made by this package) with what applying it did. */
export function freezeWithEffect(op: AppliedOp, effect: OpEffect): AppliedOp {
  new Stamp(op, effect);
  return Object.freeze(op);
}

/** What applying `op` did, when this package made it. */
export function effectOf(op: unknown): OpEffect | undefined {
  return typeof op === 'object' && op !== null ? Stamp.read(op) : undefined;
}

/** Whether `op` is an applied op this package made (and so needs no validation). */
export function isProducedOp(op: unknown): op is AppliedOp {
  return effectOf(op) !== undefined;
}

/** Whether an effect is an UPDATE's, TAG's or REMOVE's (an ADD's is the skill it made). */
export function isUpdateEffect(effect: OpEffect): effect is Effect {
  return 'after' in effect;
}
