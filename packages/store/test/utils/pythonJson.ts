/**
 * JSON the way Python's `json` module reads and writes it, for the model of ACE in
 * `aceSkillbook.ts`: objects keep their key order (a plain JS object moves integer-like keys
 * such as `"7"` to the front; Python's dict does not), numbers keep their text (Python writes
 * `1.0`, JavaScript `1`), and `dumps` writes what `json.dumps(value, ensure_ascii=False,
 * indent=2)` writes. Independent of Cohort's own reader and writer on purpose: the model is a
 * second implementation to test Cohort against.
 */

/** A JSON value as Python holds it: objects are ordered maps, numbers their literal text. */
export type PyValue = null | boolean | string | PyNumber | PyValue[] | PyObject;
/** An ordered JSON object. */
export type PyObject = Map<string, PyValue>;

/** A number as written (`0.8612`, `1.0`, `42`). */
export class PyNumber {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

/** `json.loads`: throws a `SyntaxError` on anything that is not JSON. */
export function loads(text: string): PyValue {
  const parser = new Parser(text);
  const value = parser.value();
  parser.end();
  return value;
}

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] ?? '')) this.at += 1;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at char ${this.at}`);
  }

  end(): void {
    this.space();
    if (this.at !== this.text.length) this.fail('extra data');
  }

  value(): PyValue {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 64));
    if (!m) this.fail('expecting value');
    this.at += m[0].length;
    return new PyNumber(m[0]);
  }

  private string(): string {
    const start = this.at;
    this.at += 1;
    while (this.at < this.text.length && this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    if (this.at >= this.text.length) this.fail('unterminated string');
    this.at += 1;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  private object(): PyObject {
    const out: PyObject = new Map();
    this.items('}', () => {
      this.space();
      if (this.text[this.at] !== '"') this.fail('expecting property name');
      const key = this.string();
      this.space();
      if (this.text[this.at] !== ':') this.fail("expecting ':'");
      this.at += 1;
      out.set(key, this.value());
    });
    return out;
  }

  private array(): PyValue[] {
    const out: PyValue[] = [];
    this.items(']', () => out.push(this.value()));
    return out;
  }

  /** The items of the object or array whose opening bracket is at `at`, through `close`: `item` reads each. */
  private items(close: '}' | ']', item: () => void): void {
    this.at += 1;
    this.space();
    if (this.text[this.at] === close) {
      this.at += 1;
      return;
    }
    for (;;) {
      item();
      this.space();
      const c = this.text[this.at];
      this.at += 1;
      if (c === close) return;
      if (c !== ',') this.fail(`expecting ',' or '${close}'`);
    }
  }
}

/** `json.dumps(value, ensure_ascii=False, indent=2)`: no trailing newline. */
export function dumps(value: PyValue | number | undefined, indent = ''): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  // JSON.stringify escapes strings exactly as Python does with ensure_ascii=False
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof PyNumber) return value.text;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${dumps(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value.size === 0) return '{}';
  return `{\n${[...value].map(([k, v]) => `${inner}${JSON.stringify(k)}: ${dumps(v, inner)}`).join(',\n')}\n${indent}}`;
}
