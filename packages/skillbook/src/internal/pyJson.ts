import { MAX_DEPTH, PyFloat } from './python.ts';
import type { PyValue } from './python.ts';
import { withoutLoneSurrogates } from '../loneSurrogate.ts';

/** The outcome of parsing JSON text; `position` is a UTF-16 offset into the text. */
export type PyJsonResult = { readonly ok: true; readonly value: PyValue } | { readonly ok: false; readonly message: string };

/**
 * Parses JSON text the way Python's `json.loads` does, keeping what `JSON.parse` loses:
 * object key order for integer-like keys (objects become `Map`s; a repeated key keeps its first
 * position and its last value, like a dict), ints vs floats (`1.0` is a {@link PyFloat}), big
 * integers (as `bigint`) and the `NaN` / `Infinity` literals. Never throws.
 */
export function parsePyJson(text: string): PyJsonResult {
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, message: 'Unexpected UTF-8 BOM (decode using utf-8-sig): char 0' };
  const parser = new Parser(text);
  try {
    parser.skipWs();
    const value = parser.value(0);
    parser.skipWs();
    if (parser.pos < text.length) parser.fail('Extra data');
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, message: e.message };
    throw e;
  }
}

class JsonSyntaxError extends Error {}

const STRING_RUN = /[^"\\\x00-\x1f]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(what: string, at = this.pos): never {
    const before = this.s.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new JsonSyntaxError(`${what}: line ${line} column ${column} (char ${at})`);
  }

  skipWs(): void {
    const s = this.s;
    let p = this.pos;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): PyValue {
    const s = this.s;
    const c = s[this.pos];
    if (c === '"') return this.string();
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) this.fail('Too deeply nested');
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (s.startsWith('null', this.pos)) return this.literal(4, null);
    if (s.startsWith('true', this.pos)) return this.literal(4, true);
    if (s.startsWith('false', this.pos)) return this.literal(5, false);
    if (s.startsWith('NaN', this.pos)) return this.literal(3, new PyFloat(NaN));
    if (s.startsWith('Infinity', this.pos)) return this.literal(8, new PyFloat(Infinity));
    if (s.startsWith('-Infinity', this.pos)) return this.literal(9, new PyFloat(-Infinity));
    return this.number();
  }

  private literal<T extends PyValue>(length: number, value: T): T {
    this.pos += length;
    return value;
  }

  private number(): PyValue {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.s);
    if (!m || m[0].length === 0) this.fail('Expecting value');
    const lexeme = m[0];
    this.pos += lexeme.length;
    if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(Number(lexeme));
    const n = Number(lexeme);
    return Number.isSafeInteger(n) ? (n === 0 ? 0 : n) : BigInt(lexeme);
  }

  private string(): string {
    const s = this.s;
    const begin = this.pos;
    let p = this.pos + 1;
    let out = '';
    let surrogates = false;
    for (;;) {
      STRING_RUN.lastIndex = p;
      STRING_RUN.exec(s);
      out += s.slice(p, STRING_RUN.lastIndex);
      p = STRING_RUN.lastIndex;
      const c = s[p];
      if (c === '"') {
        this.pos = p + 1;
        // a `\udXXX` escape not part of a pair (Python's json writes one): U+FFFD, as UTF-8 keeps it
        return surrogates ? withoutLoneSurrogates(out) : out;
      }
      if (c === undefined) this.fail('Unterminated string starting at', begin);
      if (c !== '\\') this.fail('Invalid control character at', p);
      const e = s[p + 1];
      if (e === 'u') {
        const hex = s.slice(p + 2, p + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape', p + 1);
        const unit = parseInt(hex, 16);
        surrogates ||= unit >= 0xd800 && unit <= 0xdfff;
        out += String.fromCharCode(unit);
        p += 6;
      } else {
        const decoded = e === undefined ? undefined : ESCAPES[e];
        if (decoded === undefined) this.fail('Invalid \\escape', p);
        out += decoded;
        p += 2;
      }
    }
  }

  private array(depth: number): PyValue[] {
    const items: PyValue[] = [];
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipWs();
      items.push(this.value(depth));
      this.skipWs();
      const c = this.s[this.pos];
      this.pos++;
      if (c === ']') return items;
      if (c !== ',') this.fail("Expecting ',' delimiter", this.pos - 1);
    }
  }

  private object(depth: number): Map<string, PyValue> {
    const map = new Map<string, PyValue>();
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return map;
    }
    for (;;) {
      this.skipWs();
      if (this.s[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWs();
      if (this.s[this.pos] !== ':') this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      map.set(key, this.value(depth));
      this.skipWs();
      const c = this.s[this.pos];
      this.pos++;
      if (c === '}') return map;
      if (c !== ',') this.fail("Expecting ',' delimiter", this.pos - 1);
    }
  }
}
