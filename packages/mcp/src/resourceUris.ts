/** The URIs of the server's resources. */

/** The book as ACE's prompt text. */
export const BOOK_URI = 'skillbook://book';
/** One skill, as JSON: `skillbook://skills/<id, URI-encoded>`. */
export const SKILL_URI_PREFIX = 'skillbook://skills/';

/** The URI of skill `id`. */
export function skillUri(id: string): string {
  return `${SKILL_URI_PREFIX}${encodeURIComponent(id)}`;
}

/** The skill id a skill URI names, or `null` for another URI. */
export function skillOfUri(uri: string): string | null {
  if (!uri.startsWith(SKILL_URI_PREFIX)) return null;
  try {
    return decodeURIComponent(uri.slice(SKILL_URI_PREFIX.length));
  } catch {
    return null;
  }
}
