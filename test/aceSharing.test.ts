import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { measureSharing } from './utils/aceSharing.ts';
import type { SharingResult } from './utils/aceSharing.ts';

/**
 * Cohort and ACE sharing one skillbook.json: a runtime runs nested sessions that add, update,
 * tag and remove skills while an ACE-style writer process loads, changes and saves the same
 * document in place, for a few seconds. What each side was told it wrote must be in the live
 * document — the only file ACE and people read.
 */
describe('sharing skillbook.json with ACE', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  function expectShared(r: SharingResult): void {
    // the run did something: both sides wrote, and the store merged ACE's saves
    expect(r.ace.saves).toBeGreaterThan(20);
    expect(r.cohort.adds).toBeGreaterThan(20);
    expect(
      (r.notices['store.rebased'] ?? 0) +
        (r.notices['store.adopted'] ?? 0) +
        (r.notices['store.forked'] ?? 0) +
        (r.notices['store.force_saved'] ?? 0),
    ).toBeGreaterThan(0);
    // ≥ 99 % of Cohort's acknowledged adds and updates are in the live document, the rest each in a logged conflict
    const acked = r.cohort.adds + r.cohort.updates;
    expect(r.cohort.addsInLive + r.cohort.updatesInLive).toBeGreaterThanOrEqual(Math.ceil(acked * 0.99));
    expect(r.cohort.missing).toEqual([]);
    // all of ACE's adds
    expect(r.ace.missing).toEqual([]);
    expect(r.ace.addsInLive).toBe(r.ace.adds);
    // every counter increment of either side counted once
    expect(r.counters.wrong).toEqual([]);
    expect(r.counters.inLive).toBe(r.counters.expected);
    // no skill twice, and recovery copies only for real conflicts
    expect(r.duplicates).toEqual([]);
    expect(r.copies).toBeLessThanOrEqual(r.conflicts);
    expect(r.copySkillsOnly).toBe(0);
  }

  it('sharing - an ACE process that reloads the document before each save: both sides land in the live document, counters add up', async () => {
    const r = await measureSharing({ mode: 'reload', durationMs: 6000, seed: 11 });
    dirs.push(r.dir);
    expectShared(r);
  }, 60_000);

  it("sharing - a long-running ACE process that loaded the document once and saves from memory: its saves never take Cohort's work away", async () => {
    const r = await measureSharing({ mode: 'long-running', durationMs: 6000, seed: 12 });
    dirs.push(r.dir);
    expectShared(r);
    // it allocates from the next_id it loaded: its skills were renumbered, and its next saves landed on the same ids
    expect(r.notices['store.ids_remapped'] ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
