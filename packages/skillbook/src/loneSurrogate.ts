/** A UTF-16 surrogate that is not half of a pair (with the `u` flag, a pair is one code point). */
const LONE = /\p{Cs}/u;
const LONE_ALL = /\p{Cs}/gu;

/** Where a lone surrogate is: the value's path (`issue`, `keywords[2]`, a key), the character, and the unit. */
export interface LoneSurrogate {
  readonly path: string;
  /** Its index in the string (UTF-16 units). */
  readonly at: number;
  /** The unit as an escape: `\ud800`. */
  readonly unit: string;
}

/**
 * The first lone surrogate in a string, or anywhere in a JSON-like value (strings, object keys,
 * array items), or `null`. A lone surrogate is not Unicode text: UTF-8 files and PostgreSQL
 * cannot hold it, so text that has one would come back changed from some copies and not from
 * others. Cohort refuses it where text comes in (tool arguments, commits) and says where.
 *
 * @example
 * loneSurrogate({ issue: 'lone \uD800 here' }); // { path: 'issue', at: 5, unit: '\\ud800' }
 */
export function loneSurrogate(value: unknown, path = ''): LoneSurrogate | null {
  // the common case, nothing found, builds no path (a commit can hold 100,000 ops)
  return hasLoneSurrogate(value, 0) ? locate(value, path) : null;
}

/** `String.prototype.isWellFormed` (Node 20; not in the ES2023 lib's types): native, many times a regular expression's speed. */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

function hasLoneSurrogate(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isWellFormed(value);
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasLoneSurrogate(value[i], depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isWellFormed(key) || hasLoneSurrogate((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

function locate(value: unknown, path: string): LoneSurrogate | null {
  if (typeof value === 'string') {
    const m = LONE.exec(value);
    return m ? { path, at: m.index, unit: escaped(m[0]) } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = locate(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const lone = LONE.test(key);
    // a path in a message must not carry the surrogate itself
    const name = lone ? key.replace(LONE_ALL, (c) => escaped(c)) : key;
    const inner = path === '' ? name : `${path}.${name}`;
    const found = (lone ? locate(key, inner) : null) ?? locate(item, inner);
    if (found) return found;
  }
  return null;
}

function escaped(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16)}`;
}

/** {@link loneSurrogate} in words: `issue: a lone surrogate (\ud800) at character 5 is not Unicode text`. */
export function describeLoneSurrogate(found: LoneSurrogate): string {
  return `${found.path === '' ? '' : `${found.path}: `}a lone surrogate (${found.unit}) at character ${found.at} is not Unicode text`;
}

/**
 * `text` with every lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it: what a
 * document read from disk holds when another program wrote one as a `\udXXX` escape.
 *
 * @example
 * withoutLoneSurrogates('a \uD800 b'); // 'a \uFFFD b'
 */
export function withoutLoneSurrogates(text: string): string {
  return isWellFormed(text) ? text : text.replace(LONE_ALL, '\uFFFD');
}
