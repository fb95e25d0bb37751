import type { AuditBlock, CommitRecord } from '../../Store.ts';

const isText = (v: unknown): v is string => typeof v === 'string';
const isTexts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);

/**
 * What is wrong with a commit's envelope (its ops are checked by the replay), or `null`: the
 * boundary where a client's commit enters the store, checked by hand (an append is a hot path).
 */
export function malformedCommit(commit: CommitRecord): string | null {
  const c: Partial<Record<keyof CommitRecord, unknown>> = commit;
  if (typeof c !== 'object' || c === null) return 'not an object';
  if (!isText(c.sessionId) || !isTexts(c.path) || typeof c.at !== 'number') return 'sessionId, path and at are required';
  if (c.explicitIds !== undefined && !isTexts(c.explicitIds)) return 'explicitIds must be a list of ids';
  if (c.allocation !== undefined && c.allocation !== 'leased' && c.allocation !== 'unleased')
    return "allocation must be 'leased' or 'unleased'";
  if (!Array.isArray(c.entries)) return 'entries must be a list of audit blocks';
  for (const block of c.entries as unknown[]) {
    const b: Partial<Record<keyof AuditBlock, unknown>> | null = typeof block === 'object' ? block : null;
    if (
      !b ||
      !isText(b.sessionId) ||
      !isTexts(b.path) ||
      !Array.isArray(b.ops) ||
      typeof b.at !== 'number' ||
      (b.name !== undefined && !isText(b.name))
    ) {
      return 'each audit block needs sessionId, path, ops and at';
    }
  }
  return null;
}
