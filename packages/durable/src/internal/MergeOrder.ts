import type { Records } from './Records.ts';

/**
 * Where a session had got when one of its children was merged: its own writes and its spawns so
 * far. Both: a later spawn starts on the draft (and checks its commit against the revision) it
 * had then, so a merge replayed at the right write but before a spawn it followed gives that
 * sibling another draft, and its commit may be refused where it was merged (or the reverse).
 */
export interface MergePlace {
  readonly writes: number;
  readonly spawns: number;
}

/** One session's remote children, in the order their outcomes are delivered. */
interface Line {
  /** Child keys in merge order: those recorded by an earlier run first, then those recorded by this one. */
  readonly order: string[];
  /** By index in `order`: where the session had got before that child's merge, where a run recorded it. */
  readonly after: (MergePlace | undefined)[];
  /** Index in `order` of the child whose turn it is. */
  next: number;
  /** The session's own writes so far in this run. */
  writes: number;
  /** The session's spawns so far in this run (remote or not: each starts on the draft as it is). */
  spawns: number;
  /** Children this run has spawned. */
  readonly spawned: Set<string>;
  /** Records of this run's arrivals, one at a time, so that the recorded order has no gaps. */
  appending: Promise<unknown>;
  readonly waiting: Map<string, () => void>;
  /** Deliveries to the session's body waiting for a merge that is due. */
  held: (() => void)[];
  /** Where an earlier run is known to have got to: the children it spawned, the most own writes it made. */
  readonly reached: { readonly spawned: Set<string>; writes: number };
  /** Merges no run recorded, waiting for the session to get back to `reached`. */
  behind: (() => void)[];
}

/**
 * The order in which each session of a unit takes in its remote children's outcomes, and where
 * each merge fell among the session's own writes, recorded so that a resumed run merges them in
 * the same order at the same points and rebuilds the same draft — the same revisions, the same
 * audit, the same conflicts, the same views for later spawns. A child's place in the order is
 * recorded before its merge; the count of own writes and spawns before it, at the merge (`merged`).
 * On a resumed run, a child recorded by an earlier run waits for the children recorded before it
 * and for the session's own writes and spawns to reach those counts; a child no run recorded yet comes after all
 * of those, in arrival order, once the session is back where the records show an earlier run
 * had got to (its spawns, recorded with the own writes made at each): without the crash, it
 * would have come after that point.
 */
export class MergeOrder {
  private readonly lines = new Map<string, Line>();
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly journal: Records,
    private readonly unitId: string,
  ) {}

  /** Reads what earlier runs of the unit recorded. */
  async load(): Promise<void> {
    const [orders, afters, spawns] = await Promise.all([
      this.journal.list(this.unitId, 'order:'),
      this.journal.list(this.unitId, 'after:'),
      this.journal.list(this.unitId, 'spawn:'),
    ]);
    const rows = orders.concat(afters);
    for (const { key, value } of spawns) {
      const m = /^spawn:((.+)\.\d+)$/.exec(key);
      if (!m || typeof value !== 'number') continue;
      const { reached } = this.line(m[2] ?? '');
      reached.spawned.add(m[1] ?? '');
      reached.writes = Math.max(reached.writes, value);
    }
    const order = new Map<string, { seq: number; child: string }[]>();
    const after = new Map<string, Map<number, MergePlace>>();
    for (const { key, value } of rows) {
      const m = /^(order|after):(.+):(\d+)$/.exec(key);
      if (!m) continue;
      const session = m[2] ?? '';
      if (m[1] === 'order' && typeof value === 'string') {
        const list = order.get(session) ?? [];
        list.push({ seq: Number(m[3]), child: value });
        order.set(session, list);
      } else if (m[1] === 'after') {
        const place = placeOf(value);
        if (!place) continue;
        const counts = after.get(session) ?? new Map<number, MergePlace>();
        counts.set(Number(m[3]), place);
        after.set(session, counts);
      }
    }
    for (const [session, list] of order) {
      list.sort((a, b) => a.seq - b.seq);
      const line = this.line(session);
      for (const { seq, child } of list) if (seq === line.order.length) line.order.push(child);
      for (let i = 0; i < line.order.length; i++) {
        const place = after.get(session)?.get(i);
        line.after.push(place);
        if (place !== undefined) line.reached.writes = Math.max(line.reached.writes, place.writes);
      }
    }
  }

  /**
   * Child `child` of `session` was spawned after `writes` own writes: a merge of it recorded
   * before may now be due. Recorded, as how far the session is known to have got.
   */
  spawned(session: string, child: string, writes: number): void {
    const line = this.line(session);
    line.spawned.add(child);
    if (!line.reached.spawned.has(child)) this.keep(this.journal.record(this.unitId, `spawn:${child}`, writes));
    this.wake(line);
  }

  /** Session `session` made its `writes`-th own write. */
  wrote(session: string, writes: number): void {
    const line = this.line(session);
    line.writes = writes;
    this.wake(line);
  }

  /** Session `session` made its `spawns`-th spawn (of any body), on its draft as it is now. */
  spawning(session: string, spawns: number): void {
    const line = this.line(session);
    line.spawns = spawns;
    this.wake(line);
  }

  /**
   * Resolves when nothing `session`'s body waits for may overtake a merge an earlier run made
   * before the session's next own write or spawn: no child recorded as merged at or before the
   * writes and spawns made so far, and spawned, waits for its merge. A resumed body given its
   * outcomes at once would otherwise write (or spawn) before such a merge.
   */
  settled(session: string): Promise<void> {
    const line = this.lines.get(session);
    if (!line || !due(line)) return Promise.resolve();
    return new Promise<void>((resolve) => line.held.push(resolve));
  }

  /** Resolves when every merge's place among its session's writes that this run saw is recorded. */
  recorded(): Promise<unknown> {
    return this.pending;
  }

  /** Resolves when child `child` of session `session` may be merged (its place recorded, those before it done). */
  async turn(session: string, child: string): Promise<void> {
    const line = this.line(session);
    let index = line.order.indexOf(child);
    if (index < 0) {
      // no run merged it: in a run without the crash it came after the point the session had got to
      if (!caughtUp(line)) await new Promise<void>((resolve) => line.behind.push(resolve));
      index = line.order.length;
      line.order.push(child);
      line.after.push(undefined);
      const record = line.appending.then(() => this.journal.record(this.unitId, `order:${session}:${index}`, child));
      line.appending = record.catch(() => undefined);
      const stands = await record;
      // another process recorded a different child there: the run is not deterministic
      if (stands !== child) throw new Error(`merge ${index} into session ${session} was recorded for ${String(stands)}, not ${child}`);
    }
    if (line.next === index && ready(line)) return;
    await new Promise<void>((resolve) => line.waiting.set(child, resolve));
  }

  /** The merge of child `child` into `session` was decided (merged or refused) at `place`: recorded. */
  merged(session: string, child: string, place: MergePlace): void {
    const line = this.line(session);
    const index = line.order.indexOf(child);
    if (index < 0 || line.after[index] !== undefined) return;
    const at = { writes: place.writes, spawns: place.spawns };
    line.after[index] = at;
    this.keep(this.journal.record(this.unitId, `after:${session}:${index}`, at));
  }

  /** Child `child` of `session` was merged (or failed): the next one's turn. */
  done(session: string, child: string): void {
    const line = this.line(session);
    if (line.order[line.next] !== child) return;
    line.next++;
    this.wake(line);
  }

  /** A record `recorded` waits for; a failed one fails the spawns that wait, and is no unhandled rejection when none does. */
  private keep(record: Promise<unknown>): void {
    this.pending = Promise.all([this.pending, record]);
    this.pending.catch(() => undefined);
  }

  /** Lets the child whose turn it is go once the session's writes reached its place, and the body once no merge is due. */
  private wake(line: Line): void {
    if (line.behind.length > 0 && caughtUp(line)) {
      const behind = line.behind;
      line.behind = [];
      for (const go of behind) go();
    }
    const nextChild = line.order[line.next];
    const go = nextChild === undefined || !ready(line) ? undefined : line.waiting.get(nextChild);
    if (nextChild !== undefined && go) {
      line.waiting.delete(nextChild);
      go();
    }
    if (line.held.length > 0 && !due(line)) {
      const held = line.held;
      line.held = [];
      for (const release of held) release();
    }
  }

  private line(session: string): Line {
    let line = this.lines.get(session);
    if (!line) {
      line = {
        order: [],
        after: [],
        next: 0,
        writes: 0,
        spawns: 0,
        spawned: new Set(),
        appending: Promise.resolve(),
        waiting: new Map(),
        held: [],
        reached: { spawned: new Set(), writes: 0 },
        behind: [],
      };
      this.lines.set(session, line);
    }
    return line;
  }
}

/** Has the session got back to where an earlier run is known to have got: its spawns made again, as many own writes? */
function caughtUp(line: Line): boolean {
  if (line.writes < line.reached.writes) return false;
  for (const child of line.reached.spawned) if (!line.spawned.has(child)) return false;
  return true;
}

/** Has the session made the own writes and spawns an earlier run made before the merge whose turn it is? */
function ready(line: Line): boolean {
  const after = line.after[line.next];
  return after === undefined || reachedPlace(line, after);
}

/**
 * Is a merge an earlier run made at this point of the session's writes and spawns still to
 * come? The first child in line with a recorded place decides, once it and every child before
 * it are spawned: a child with none (one that failed, or whose place the crash cut off) comes
 * first, but does not let the body past the merges recorded behind it.
 */
function due(line: Line): boolean {
  for (let i = line.next; i < line.order.length; i++) {
    const child = line.order[i];
    if (child === undefined || !line.spawned.has(child)) return false;
    const after = line.after[i];
    if (after !== undefined) return reachedPlace(line, after);
  }
  return false;
}

function reachedPlace(line: Line, place: MergePlace): boolean {
  return line.writes >= place.writes && line.spawns >= place.spawns;
}

/**
 * A recorded merge's place: `{ writes, spawns }`, or a bare count of own writes (a unit recorded
 * before spawns were counted, whose merges are placed by writes alone, as then).
 */
function placeOf(value: unknown): MergePlace | null {
  if (typeof value === 'number') return { writes: value, spawns: 0 };
  if (typeof value !== 'object' || value === null) return null;
  const { writes, spawns } = value as Record<string, unknown>;
  return typeof writes === 'number' && typeof spawns === 'number' ? { writes, spawns } : null;
}
