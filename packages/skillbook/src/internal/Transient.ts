/**
 * Copy-on-write for one commit of a batch's changes into a frozen book: every node on a
 * changed path is copied once (later writes in the same commit go to that copy), and the
 * copies are frozen together at the end, so the result shares every untouched node with its
 * base, as an immer `produce` would.
 *
 * Why not `produce` here: immer copies an array with `Array.prototype.slice`, which V8 runs
 * on a slow path for frozen arrays (3–13 µs for a 32- or 64-slot node, against 0.2–0.9 µs for
 * a spread copy, Node 20), and a batch copies dozens of such nodes; proxies and finalisation
 * double that again: a 10-op batch took 0.5–0.8 ms through `produce`, about 0.2 ms here (bench
 * row 6i). Copies here are spread copies, and a frozen `Map` refuses `set`, `delete` and
 * `clear` as immer's frozen Maps do (see {@link freezeMap}).
 */
import { freezeMap } from './frozenMap.ts';

export class Transient {
  private readonly fresh = new Set<object>();

  /** A writable version of `node`: itself when it was made in this commit, else a copy. */
  array<T>(node: readonly T[]): T[] {
    if (this.fresh.has(node)) return node as T[];
    return this.adopt([...node]);
  }

  /** A writable version of a `Map`. */
  map<K, V>(node: ReadonlyMap<K, V>): Map<K, V> {
    if (this.fresh.has(node)) return node as Map<K, V>;
    return this.adopt(new Map(node));
  }

  /** A writable shallow copy of a plain object (copied once per commit). */
  object<T extends object>(node: T): T {
    if (this.fresh.has(node)) return node;
    return this.adopt({ ...node });
  }

  /** Registers a node made in this commit (frozen by {@link Transient.freeze}). */
  adopt<T extends object>(node: T): T {
    this.fresh.add(node);
    return node;
  }

  /** Freezes every node made or copied in this commit. Their children were frozen already. */
  freeze(): void {
    for (const node of this.fresh) {
      if (node instanceof Map) freezeMap(node);
      else Object.freeze(node);
    }
  }
}
