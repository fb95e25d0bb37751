/**
 * Why `value` cannot be recorded as plain JSON data — the first problem found, with where it
 * is (`input.tags[2]: a function`) — or null when it can. What a durable unit records (inputs,
 * outputs) is read back in another process: a function, a class instance (a `Date`, a `Map`),
 * a `bigint`, `NaN` or a cycle would not come back as it went in.
 *
 * @example
 * jsonProblem({ a: [1, 'x'] }, 'input');      // null
 * jsonProblem({ at: new Date() }, 'input');   // 'input.at: a Date (only plain objects, arrays, …)'
 */
export function jsonProblem(value: unknown, where: string, seen: Set<object> = new Set()): string | null {
  // nothing at all (no input, a body that returns nothing) is recorded as nothing
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${where}: ${String(value)} (not a finite number)`;
  if (typeof value !== 'object') return `${where}: a ${typeof value}${PLAIN}`;
  if (seen.has(value)) return `${where}: a cycle`;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
    return `${where}: a ${value.constructor?.name ?? 'class instance'}${PLAIN}`;
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const at = `${where}[${i}]`;
        const problem = item === undefined ? `${at}: undefined (JSON has no undefined in a list)` : jsonProblem(item, at, seen);
        if (problem) return problem;
      }
      return null;
    }
    for (const [key, item] of Object.entries(value)) {
      // an undefined property is left out, as JSON leaves it out
      const problem = jsonProblem(item, `${where}.${key}`, seen);
      if (problem) return problem;
    }
    return null;
  } finally {
    seen.delete(value);
  }
}

const PLAIN = ' (only plain objects, arrays, strings, finite numbers, booleans and null)';
