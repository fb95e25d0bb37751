/**
 * A seeded pseudo-random source: the simulation's only randomness. Every choice a scenario
 * makes comes from one of these, so a seed names a run exactly (no `Math.random` anywhere).
 */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One key of a table of weights (weights need not sum to 1). */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /**
   * An independent stream derived from this one's seed and `label`. Forks keep unrelated
   * parts of a scenario apart: adding a choice to one part does not shift the others.
   */
  fork(label: string): Prng;
}

/**
 * Creates a {@link Prng} from a seed (mulberry32 over a splitmix-scrambled seed).
 *
 * @example
 * const prng = createPrng(42);
 * prng.int(1, 6);              // the same number for seed 42, every time
 * prng.fork('store').chance(0.5);
 */
export function createPrng(seed: number): Prng {
  return fromState(scramble(seed >>> 0));
}

function fromState(initial: number): Prng {
  let state = initial >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const prng: Prng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick: the list is empty');
      return items[Math.floor(next() * items.length)] as T;
    },
    weighted: <K extends string>(weights: Readonly<Record<K, number>>): K => {
      const entries = Object.entries(weights) as [K, number][];
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [key, w] of entries) {
        roll -= w;
        if (roll < 0) return key;
      }
      const last = entries[entries.length - 1];
      if (!last) throw new RangeError('weighted: no weights');
      return last[0];
    },
    fork: (label) => fromState(scramble(initial ^ hash(label))),
  };
  return prng;
}

/** splitmix32's finaliser: spreads nearby seeds (1, 2, 3 …) far apart. */
function scramble(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a of a label. */
function hash(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
