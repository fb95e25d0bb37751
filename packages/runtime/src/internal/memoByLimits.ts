import type { Limits } from '../Limits.ts';

/** How many sets of limit values a memo keeps (a program that makes runtimes of ever new limits rebuilds the oldest). */
const KEPT = 16;

/**
 * `build` memoized by the limit values it reads (`keyOf`), and by the limits object itself:
 * every runtime's limits are a new object, and zod compiles a schema's parser on its first use,
 * so schemas made per runtime would cost every runtime that compilation (a fan-out of
 * short-lived runtimes spent a fifth more CPU).
 */
export function memoByLimits<T>(keyOf: (limits: Limits) => string, build: (limits: Limits) => T): (limits: Limits) => T {
  const byValues = new Map<string, T>();
  const byObject = new WeakMap<Limits, T>();
  return (limits) => {
    const known = byObject.get(limits);
    if (known !== undefined) return known;
    const key = keyOf(limits);
    let value = byValues.get(key);
    if (value === undefined) {
      value = build(limits);
      if (byValues.size >= KEPT) byValues.delete(byValues.keys().next().value ?? '');
      byValues.set(key, value);
    }
    byObject.set(limits, value);
    return value;
  };
}
