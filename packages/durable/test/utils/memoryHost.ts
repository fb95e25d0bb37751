import { MemoryStore } from '@cohort/store';
import type { Bodies } from '../../src/Bodies.ts';
import { BookAt } from '../../src/internal/BookAt.ts';
import type { UnitHost } from '../../src/internal/UnitRun.ts';
import { MemoryJournal } from './MemoryJournal.ts';

/**
 * A worker's host without DBOS: units run in this process, recorded in memory; a child unit
 * goes to `runChild` (by default there are none).
 */
export function memoryHost(
  bodies: Bodies,
  runChild: UnitHost['runChild'] = () => Promise.reject(new Error('no child units here')),
): UnitHost & { readonly store: MemoryStore } {
  const store = new MemoryStore();
  return {
    journal: new MemoryJournal(),
    store,
    books: new BookAt(store),
    bodies,
    limits: undefined,
    conflicts: undefined,
    runChild,
  };
}
