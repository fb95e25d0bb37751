import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileStore, describeOpenError } from '@cohort/store';
import { childrenRoom, spawnMergeChild } from '../packages/store/test/utils/spawnMergeChild.ts';
import type { AckLine } from '../packages/store/test/utils/mergeProtocol.ts';

const KILLS = 12;
const CHILD = fileURLToPath(new URL('./utils/runtimeMergeChild.ts', import.meta.url));

/**
 * The store's own kill test (packages/store) kills a process that drives the store directly
 * fifty times; this one kills a whole runtime — root sessions, children that commit, children
 * that crash — and checks what its sessions were told against what reopening finds.
 */
describe('a runtime killed with SIGKILL', () => {
  const room = childrenRoom();
  const children = room.children;

  it('keeps every acknowledged session commit, whole, and nothing of a crashed child', async () => {
    const { document, command } = await room.open('cohort-rt-kill-', CHILD);
    const acks: AckLine[] = [];
    for (let k = 0; k < KILLS; k++) {
      const child = spawnMergeChild({ document, writerId: `rt-${k}`, prefix: `p${k}`, concurrent: 4 }, command);
      children.push(child);
      child.go();
      await child.ready;
      const deadline = Date.now() + 5_000;
      while (child.acks.length < 1 + (k % 4) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, (k * 7) % 23));
      child.proc.kill('SIGKILL');
      expect((await child.closed).signal).toBe('SIGKILL');
      acks.push(...child.acks);

      const opened = await FileStore.open(document, { idleCheckpointMs: 0, lockWaitMs: 10_000 });
      if (!opened.ok) throw new Error(describeOpenError(opened.error));
      const book = opened.store.book;
      for (const ack of acks) {
        expect(ack.adds).toHaveLength(7); // the root's own ADD and its two committed children's six
        for (const add of ack.adds) expect(book.get(add.id)?.issue).toBe(add.issue);
      }
      const skills = [...book.skills()];
      // nothing half-applied: every root session in the book is there whole (7 skills), and
      // nothing of the always-crashing child (c2) ever lands
      const byRoot = new Map<string, number>();
      for (const s of skills) {
        const tag = s.issue.split(' ')[0] ?? '';
        byRoot.set(tag, (byRoot.get(tag) ?? 0) + 1);
      }
      for (const [tag, count] of byRoot) expect(count, `root session ${tag} landed whole`).toBe(7);
      expect(skills.some((s) => s.issue.includes(' c2 '))).toBe(false);
      expect(new Set(skills.map((s) => s.id)).size).toBe(skills.length);
      await opened.store.close();
    }
    expect(acks.length).toBeGreaterThanOrEqual(KILLS);
  }, 90_000);
});
