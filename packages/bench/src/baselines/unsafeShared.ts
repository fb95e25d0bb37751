import type { AceDoc } from './AceBook.ts';
import { aceAdd } from './AceBook.ts';

/** An `add_skill` tool on a shared document: async like a real tool, no isolation at all. */
async function addSkill(doc: AceDoc, args: { readonly section: string; readonly issue: string; readonly insight: string }): Promise<{ ok: true; skill_id: string }> {
  return { ok: true, skill_id: aceAdd(doc, args.section, args.issue, args.insight) };
}

/**
 * The unsafe baseline (ACE's bug): `children` plain async functions in parallel, each making
 * `ops` `add_skill` calls straight into one shared, mutable document. Fast, and wrong: a
 * crashing child leaves its writes behind and the operations of siblings interleave.
 */
export async function unsafeSharedFanOut(doc: AceDoc, children: number, ops: number): Promise<void> {
  await Promise.all(
    Array.from({ length: children }, async (_, i) => {
      for (let j = 0; j < ops; j++) await addSkill(doc, { section: 'harness', issue: `issue ${i}.${j}`, insight: 'learned' });
    }),
  );
}
