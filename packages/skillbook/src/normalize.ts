/**
 * ACE's text rules: text is `str()`-ed and trimmed (Python white space) and blank means absent;
 * keywords are lower-cased with runs of white space turned into `_`; a free-form (legacy)
 * section becomes `context` with its name as the first keyword.
 */
import { PY_WS_CLASS, PyError, pyStr, pyStrip } from './internal/python.ts';
import type { Section } from './types.ts';

/** The two real sections. */
export const SECTIONS: readonly Section[] = ['context', 'harness'];

/** Whether a (lower-cased) section name is one of the two real sections. */
export function isSection(name: string): name is Section {
  return name === 'context' || name === 'harness';
}

const WS_RUN = new RegExp(`${PY_WS_CLASS}+`, 'g');

/** ACE `_normalize_optional_text`: `None` stays absent; anything else is `str()`-ed and trimmed; blank → `null`. */
export function normalizeOptionalText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = pyStrip(pyStr(value));
  return text === '' ? null : text;
}

/** ACE `_normalize_required_text`: like {@link normalizeOptionalText} but blank raises `ValueError`. */
export function normalizeRequiredText(value: unknown, fieldName: string): string {
  const text = normalizeOptionalText(value);
  if (text === null) throw new PyError('ValueError', `${fieldName} is required and must be non-empty`);
  return text;
}

/** ACE `_normalize_keyword`: trimmed, lower-cased, white-space runs → `_`; blank → `null`. */
export function normalizeKeyword(value: unknown): string | null {
  const text = normalizeOptionalText(value);
  if (text === null) return null;
  const keyword = text.toLowerCase().replace(WS_RUN, '_');
  return keyword === '' ? null : keyword;
}

/** ACE `_normalize_keywords`: each normalised, blanks and duplicates dropped, order kept. */
export function normalizeKeywords(values: Iterable<unknown>): string[] {
  const out: string[] = [];
  // a handful of keywords is the rule: a linear look-up beats building a Set
  let seen: Set<string> | null = null;
  for (const value of values) {
    const keyword = normalizeKeyword(value);
    if (keyword === null) continue;
    if (seen) {
      if (seen.has(keyword)) continue;
      seen.add(keyword);
    } else {
      if (out.includes(keyword)) continue;
      if (out.length === 16) seen = new Set(out).add(keyword);
    }
    out.push(keyword);
  }
  return out;
}

/**
 * ACE `_coerce_section_and_keywords`: a real section keeps the keywords; a legacy one becomes
 * `context` with its (lower-cased) name put first. Raises when the section is blank.
 */
export function coerceSectionAndKeywords(section: unknown, keywords: readonly unknown[]): [Section, string[]] {
  const name = normalizeRequiredText(section, 'section').toLowerCase();
  const normalized = normalizeKeywords(keywords);
  if (isSection(name)) return [name, normalized];
  return ['context', normalizeKeywords([name, ...normalized])];
}
