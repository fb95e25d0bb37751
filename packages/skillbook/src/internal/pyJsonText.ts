import { MAX_DEPTH, PyError, PyFloat, dictEntries, floatRepr, isDict } from './python.ts';

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A string as Python's `json.dumps(..., ensure_ascii=False)` writes it. That is exactly
 * `JSON.stringify` (`\"`, `\\`, `\n`-style escapes, other controls as lowercase `\u001c`,
 * U+2028 raw) except for lone surrogates, which Python leaves raw and JS escapes.
 */
export function jsonString(s: string): string {
  const quoted = JSON.stringify(s);
  if (!LONE_SURROGATE.test(s)) return quoted;
  let out = '"';
  for (const ch of s) out += LONE_SURROGATE.test(ch) ? ch : JSON.stringify(ch).slice(1, -1);
  return `${out}"`;
}

/** A number as `json.dumps` writes it: ints exactly, floats as `repr`, `NaN` / `Infinity` literals. */
export function jsonNumber(v: number | bigint | PyFloat): string {
  if (typeof v === 'bigint') return v.toString();
  const isFloat = v instanceof PyFloat;
  const x = isFloat ? v.value : v;
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (!isFloat && Number.isInteger(x)) return BigInt(x).toString();
  return floatRepr(x);
}

/**
 * A JSON-like value as `json.dumps(value, indent=2, ensure_ascii=False)` writes it, nested at
 * `indent` (the current line's indentation). Used for values ACE passes through untouched.
 */
export function writeIndented(value: unknown, indent: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof PyFloat) return jsonNumber(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + writeIndented(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (isDict(value)) {
    const entries = dictEntries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([k, v]) => `${inner}${jsonString(k)}: ${writeIndented(v, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return jsonString(String(value));
}

/** Compares two strings by code point, as Python sorts `str`s (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && x <= 0xdfff && y >= 0xe000) return 1;
    if (y >= 0xd800 && y <= 0xdfff && x >= 0xe000) return -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Python `json.dumps(value, ensure_ascii=False, sort_keys=True)` (separators `', '` and `': '`),
 * as ACE hashes it to fingerprint a trace. Raises what Python raises: a circular reference,
 * too deep a nesting, or a lone surrogate (the text cannot be encoded as UTF-8 for hashing).
 */
export function dumpsSorted(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number): string => {
    if (depth > MAX_DEPTH) throw new PyError('RecursionError', 'maximum recursion depth exceeded while encoding a JSON object');
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) throw new PyError('UnicodeEncodeError', "'utf-8' codec can't encode a surrogate: surrogates not allowed");
      return JSON.stringify(v);
    }
    if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PyFloat) return jsonNumber(v);
    if (typeof v !== 'object') return JSON.stringify(String(v));
    if (seen.has(v)) throw new PyError('ValueError', 'Circular reference detected');
    seen.add(v);
    try {
      if (Array.isArray(v)) return `[${v.map((x) => walk(x, depth + 1)).join(', ')}]`;
      if (!isDict(v)) return JSON.stringify(Object.prototype.toString.call(v));
      const entries = dictEntries(v).sort(([a], [b]) => compareCodePoints(a, b));
      return `{${entries.map(([k, x]) => `${walk(k, depth + 1)}: ${walk(x, depth + 1)}`).join(', ')}}`;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0);
}
