/** Records by unit, then key (a durable world's journal). */
export type Rows = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

/** Where a session had got: its own writes and its spawns. */
export interface Place {
  readonly writes: number;
  readonly spawns: number;
}

/**
 * A merge the records at the crash did not place: the child's outcome was recorded, where it
 * fell among its parent's writes and spawns was not. The resumed run may merge it anywhere from
 * `floor` on (where the records show the parent had got to), as a run without the crash in which
 * the child was faster would; `place` is where it did (null: it was not merged, a failure). A
 * merge whose turn was recorded (`order:`) but not its place may have been made before the
 * crash, and the parent may have gone on past it: it merges as soon as its turn comes (the
 * engine's documented limit), and its floor is the start.
 */
export interface FreeMerge {
  /** The parent unit, the session merged into, and the child's turn key (`0.2`, `0.2#2`). */
  readonly unit: string;
  readonly session: string;
  readonly child: string;
  readonly floor: Place;
  readonly place: Place | null;
}

/**
 * The merges of a durable run that the records at its crash left free: for each child turn in
 * the final records (`order:<session>:<n>`) whose unit's outcome was recorded at the crash but
 * whose place (`after:<session>:<n>`) was not. Read from the records alone, not from the
 * engine's replay: the floor is the most own writes and the furthest spawn recorded at the
 * crash, the limit the engine documents.
 *
 * @example
 * freeMerges(rowsAtCrash, world.rows).filter((m) => !fromFloor(m));
 */
export function freeMerges(atCrash: Rows, final: Rows): FreeMerge[] {
  const out: FreeMerge[] = [];
  for (const [unit, rows] of final) {
    const crashed = atCrash.get(unit);
    for (const [key, child] of rows) {
      const m = /^order:(.+):(\d+)$/.exec(key);
      if (!m || typeof child !== 'string') continue;
      const session = m[1] ?? '';
      const placedKey = `after:${session}:${m[2]}`;
      if (!atCrash.get(`${unit}/${child}`)?.has('result') || crashed?.has(placedKey)) continue;
      const floor = crashed?.get(key) === child ? { writes: 0, spawns: 0 } : floorOf(crashed, session);
      out.push({ unit, session, child, floor, place: placeOf(rows.get(placedKey)) });
    }
  }
  return out;
}

/** Did the resumed run merge `merge` no earlier than where the records at the crash show its parent had got to? */
export function fromFloor(merge: FreeMerge): boolean {
  const { place, floor } = merge;
  return place === null || (place.writes >= floor.writes && place.spawns >= floor.spawns);
}

/** The most own writes and the furthest spawn that `session`'s records show (its spawns, its placed merges). */
function floorOf(rows: ReadonlyMap<string, unknown> | undefined, session: string): Place {
  let writes = 0;
  let spawns = 0;
  for (const [key, value] of rows ?? []) {
    const spawn = /^spawn:(.+)\.(\d+)$/.exec(key);
    if (spawn && spawn[1] === session && typeof value === 'number') {
      writes = Math.max(writes, value);
      spawns = Math.max(spawns, Number(spawn[2]));
    }
    // session keys hold dots, never colons: this prefix names that session's merges only
    const placed = key.startsWith(`after:${session}:`) ? placeOf(value) : null;
    if (placed) {
      writes = Math.max(writes, placed.writes);
      spawns = Math.max(spawns, placed.spawns);
    }
  }
  return { writes, spawns };
}

function placeOf(value: unknown): Place | null {
  if (typeof value === 'number') return { writes: value, spawns: 0 };
  if (typeof value !== 'object' || value === null) return null;
  const { writes, spawns } = value as Record<string, unknown>;
  return typeof writes === 'number' && typeof spawns === 'number' ? { writes, spawns } : null;
}
