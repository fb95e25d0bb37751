/**
 * Skill ids as text and as numbers: ACE's `<section>-<n, zero-padded to 5>`, and the number an
 * id ends in. Every ADD formats one, and reads it back to keep its book's counter ahead; every
 * merge of a commit reads each of its ADDs' ids again, at each level of a session tree.
 */
import type { Section, SkillId } from '../../types.ts';

/** ACE's id for counter value `n`: `<section>-<n, zero-padded to 5>` (Python `{:05d}`, sign included). */
export function formatSkillId(section: Section, n: number): SkillId {
  const digits = n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(5, '0');
  // row 2e: joined, a flat string; concatenated, a 13-character id is a cons string, flattened at first look-up, walked by every read
  return [section, digits].join('-') as SkillId;
}

/**
 * The numeric suffix of an id like `context-00012` (12), or `undefined` when the id does not
 * look like that (letters or `_`, a dash, digits) or its suffix is beyond 2^53 (no counter can
 * reach it).
 */
export function idSuffix(id: string): number | undefined {
  // row 2e: read char by char, not matched: a match allocates its result, and a tree's merges read every id at every level
  const dash = id.lastIndexOf('-');
  if (dash < 1 || dash === id.length - 1) return undefined;
  for (let i = 0; i < dash; i++) if (!isNameChar(id.charCodeAt(i))) return undefined;
  let n = 0;
  for (let i = dash + 1; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

/** A letter of ASCII or `_`. */
function isNameChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
