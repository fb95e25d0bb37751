import type { Skillbook } from '@cohort/skillbook';
import type { ExternalChanges } from '../../StoreNotice.ts';
import { sameContent, sameSkill } from '../sequencing/contentConflicts.ts';

const SAMPLE = 50;

/** Lists of skill ids as an {@link ExternalChanges}: up to 50 ids per list, the counts exact. */
export function changeSummary(lists: Readonly<Record<'added' | 'changed' | 'removed' | 'dropped', readonly string[]>>): ExternalChanges {
  const { added, changed, removed, dropped } = lists;
  return {
    added: added.slice(0, SAMPLE),
    changed: changed.slice(0, SAMPLE),
    removed: removed.slice(0, SAMPLE),
    dropped: dropped.slice(0, SAMPLE),
    counts: { added: added.length, changed: changed.length, removed: removed.length, dropped: dropped.length },
  };
}

/** What changed from `base` to `disk`, skill by skill (up to 50 ids per list; the counts are exact). O(n). */
export function externalChanges(base: Skillbook, disk: Skillbook): ExternalChanges {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const dropped: string[] = [];
  for (const before of base.skills()) {
    const after = disk.get(before.id);
    // a different skill under the same id: ours was displaced (dropped), theirs is new
    if (!after || !sameSkill(before, after)) dropped.push(before.id);
    else if (!sameContent(before, after)) changed.push(before.id);
    else if (before.active && !after.active) removed.push(before.id);
  }
  for (const skill of disk.skills()) {
    const before = base.get(skill.id);
    if (!before || !sameSkill(before, skill)) added.push(skill.id);
  }
  return changeSummary({ added, changed, removed, dropped });
}
