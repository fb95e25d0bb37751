import type { Renumbered } from '../disk/Ledger.ts';
import { RecentMap } from './RecentMap.ts';

/** How many renumberings a store remembers in memory (the newest; the ledger keeps the newest 256 across reopening). */
export const RENUMBERINGS_IN_MEMORY = 65_536;

const key = (id: string, createdAt: string): string => `${createdAt}\u0000${id}`;

/**
 * The other writers' skills this store renumbered (their id was Cohort's), by their id as the
 * writer wrote it and their `created_at`: what identifies one across the writer's saves. A
 * long-running writer keeps saving such a skill under its old id; looked up here, it lands on
 * the id it was given, and is not a newcomer again. Bounded (the oldest go first).
 */
export class RenumberMemory {
  private readonly map = new RecentMap<string, string>(RENUMBERINGS_IN_MEMORY);

  constructor(initial: readonly Renumbered[] = []) {
    this.add(initial);
  }

  /** The id `id` (with `createdAt`) was renumbered to, if it was. */
  lookup(id: string, createdAt: string): string | undefined {
    return this.map.get(key(id, createdAt));
  }

  /** Remembers renumberings (a newer one of the same skill replaces the older). */
  add(renumbered: readonly Renumbered[]): void {
    for (const r of renumbered) this.map.set(key(r.from, r.createdAt), r.to);
  }

  /** Remembers renumberings older than every one remembered (read back from the journal): the first to go past the bound. */
  addOlder(renumbered: readonly Renumbered[]): void {
    const newer = [...this.map.entries()];
    this.map.clear();
    this.add(renumbered);
    for (const [k, to] of newer) this.map.set(k, to);
  }

  /** How many are remembered. */
  get size(): number {
    return this.map.size;
  }
}
