/**
 * Python semantics that ACE's Skillbook relies on, reproduced over JSON-like values: `str()`,
 * `repr()`, `int()`, truthiness, `str.strip()` and dict access. ACE turns whatever JSON it is
 * given into text or integers with these, so the Skillbook must do exactly the same to write
 * the same documents.
 *
 * Values come either from our own JSON parser (objects are `Map`s, floats are {@link PyFloat})
 * or from callers (plain objects, JS numbers). Both are accepted everywhere.
 */

/**
 * A JSON number written with a fraction or an exponent (`1.0`, `1e-05`): Python keeps it a
 * float, so `str()` and `json.dumps` write it back as a float (`1.0`, not `1`).
 */
export class PyFloat {
  constructor(readonly value: number) {
    Object.freeze(this);
  }
}

/** The Python exception ACE would raise (`ValueError`, `TypeError`, …), as an internal signal. */
export class PyError extends Error {
  constructor(
    readonly pyType: 'ValueError' | 'TypeError' | 'OverflowError' | 'RecursionError' | 'UnicodeEncodeError',
    message: string,
  ) {
    super(message);
    this.name = 'PyError';
  }
}

/** A parsed JSON value with Python's distinctions kept (int vs float, key order). */
export type PyValue = null | boolean | number | bigint | string | PyFloat | readonly PyValue[] | PyDict;

/** A JSON object, in document key order. */
export type PyDict = ReadonlyMap<string, PyValue>;

/** Python's recursion limit is 1000 frames; nested containers beyond this raise there too. */
export const MAX_DEPTH = 900;

const WS_CODES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python's `str.isspace()` set (also what `\s` matches in a `re` str pattern). JS `\s` differs. */
export const PY_WS_CLASS = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

/** Whether a UTF-16 code unit is Python white space (all of them are in the BMP). */
export function isPyWhitespace(code: number): boolean {
  // printable ASCII never is (nor are the controls below U+0085 past U+0020): most text is settled without the set
  return (code <= 0x20 || code >= 0x7f) && WS_CODES.has(code);
}

/** Python `s.strip()`. Linear, unlike a `/\s+$/` regex on long runs of white space. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** A JSON object as ACE sees a `dict`: a `Map`, or a plain object (not an array or a class instance). */
export function isDict(v: unknown): v is PyDict | Readonly<Record<string, unknown>> {
  if (v instanceof Map) return true;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `d.get(key)`: own keys only, so `constructor` or `__proto__` are ordinary keys. `undefined` when absent. */
export function dictGet(d: PyDict | Readonly<Record<string, unknown>>, key: string): unknown {
  if (d instanceof Map) return d.get(key);
  const rec = d as Readonly<Record<string, unknown>>;
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** `key in d` (a key holding JS `undefined` counts as absent: JSON has no `undefined`). */
export function dictHas(d: PyDict | Readonly<Record<string, unknown>>, key: string): boolean {
  return dictGet(d, key) !== undefined;
}

/** `d.items()` in order (a plain object's integer-like keys come first: JS cannot do better). */
export function dictEntries(d: PyDict | Readonly<Record<string, unknown>>): [string, unknown][] {
  if (d instanceof Map) return [...(d as PyDict).entries()];
  return Object.entries(d).filter(([, v]) => v !== undefined);
}

/** Whether a value is a Python `int` (booleans aside): an integer number or a bigint. */
export function isPyInt(v: unknown): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

/** Python truthiness (`bool(x)`): NaN is true, empty containers and zero are false. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return v.length > 0;
  if (v instanceof PyFloat) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (isDict(v)) return dictEntries(v).length > 0;
  return true;
}

/** Python `str(x)`: text stays text; everything else is its `repr`. */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/** Python `repr(x)` for JSON-like values (`None`, `True`, `1.0`, `['a', 1]`, `{'k': None}`). */
export function pyRepr(v: unknown, depth = 0, seen: Set<object> = new Set()): string {
  if (depth > MAX_DEPTH) throw new PyError('RecursionError', 'maximum recursion depth exceeded while getting the repr of an object');
  if (v === null || v === undefined) return 'None';
  switch (typeof v) {
    case 'string':
      return quoteRepr(v);
    case 'boolean':
      return v ? 'True' : 'False';
    case 'number':
      // A JS number that is an integer stands for a Python int (JSON `3` and `3.0` are one number here).
      return Number.isInteger(v) ? BigInt(v).toString() : floatRepr(v);
    case 'bigint':
      return v.toString();
    case 'object':
      return containerRepr(v, depth, seen);
    default:
      return `<${typeof v}>`;
  }
}

function containerRepr(v: object, depth: number, seen: Set<object>): string {
  if (v instanceof PyFloat) return floatRepr(v.value);
  const isList = Array.isArray(v);
  if (!isList && !isDict(v)) return `<${Object.prototype.toString.call(v).slice(8, -1)} object>`;
  if (seen.has(v)) return isList ? '[...]' : '{...}';
  seen.add(v);
  try {
    if (isList) return `[${(v as unknown[]).map((x) => pyRepr(x, depth + 1, seen)).join(', ')}]`;
    const items = dictEntries(v as PyDict).map(([k, x]) => `${quoteRepr(k)}: ${pyRepr(x, depth + 1, seen)}`);
    return `{${items.join(', ')}}`;
  } finally {
    seen.delete(v);
  }
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr` of a str: quote choice, `\n`-style escapes, `\xNN`/`\uNNNN` for non-printables. */
export function quoteRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || ch === ' ' || !NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Python `repr(float)`: the shortest round-tripping digits, fixed notation for exponents -4..15
 * (always with a fraction: `1.0`), scientific otherwise (`1e-05`, `1e+16`).
 */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '', exp = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/**
 * Python `int(x)`: booleans, ints, floats (truncated) and decimal strings (`' -42 '`, `'1_000'`,
 * other scripts' digits); anything else raises, as in ACE, where it rejects the batch.
 */
export function pyInt(v: unknown): bigint {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' || v instanceof PyFloat) {
    const x = typeof v === 'number' ? v : v.value;
    if (Number.isNaN(x)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(x)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(x));
  }
  if (typeof v === 'string') return intFromString(v);
  const typeName = v === null || v === undefined ? 'NoneType' : Array.isArray(v) ? 'list' : isDict(v) ? 'dict' : typeof v;
  throw new PyError('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${typeName}'`);
}

const ND = /\p{Nd}/u;

function intFromString(s: string): bigint {
  let t = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) t += ch;
    else if (cp <= 0xffff && WS_CODES.has(cp)) t += ' ';
    else if (ND.test(ch)) t += String(decimalValue(cp));
    else t += ch;
  }
  t = t.replace(/^[ \t\n\v\f\r\x1c-\x1f]+|[ \t\n\v\f\r\x1c-\x1f]+$/g, '');
  const digits = t.replace(/[^0-9]/g, '').length;
  if (!/^[+-]?[0-9]+(?:_[0-9]+)*$/.test(t) || digits > 4300) {
    throw new PyError('ValueError', `invalid literal for int() with base 10: ${quoteRepr(s)}`);
  }
  return BigInt(t.replace(/_/g, ''));
}

/** A decimal digit's value: Unicode keeps every `Nd` digit in a contiguous run 0..9. */
function decimalValue(cp: number): number {
  let start = cp;
  while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** Python `str.isdigit()` (decimal digits plus the common super/subscript and circled digits). */
export function pyIsDigit(s: string): boolean {
  return (
    s.length > 0 &&
    /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]+$/u.test(
      s,
    )
  );
}
