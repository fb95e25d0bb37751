import type { Records } from './Records.ts';

/** One session's remote children, in the order their outcomes are delivered. */
interface Line {
  /** Child keys in merge order: those recorded by an earlier run first, then those recorded by this one. */
  readonly order: string[];
  /** Index in `order` of the child whose turn it is. */
  next: number;
  /** Records of this run's arrivals, one at a time, so that the recorded order has no gaps. */
  appending: Promise<unknown>;
  readonly waiting: Map<string, () => void>;
}

/**
 * The order in which each session of a unit takes in its remote children's outcomes, recorded
 * before each one is merged, so that a resumed run merges them in the same order and rebuilds
 * the same draft — the same revisions, the same audit, the same views for later spawns. A
 * child recorded by an earlier run waits for the children recorded before it; a child no run
 * recorded yet comes after all of those, in arrival order.
 */
export class MergeOrder {
  private readonly lines = new Map<string, Line>();

  constructor(
    private readonly journal: Records,
    private readonly unitId: string,
  ) {}

  /** Reads what earlier runs of the unit recorded. */
  async load(): Promise<void> {
    const rows = await this.journal.list(this.unitId, 'order:');
    const bySession = new Map<string, { seq: number; child: string }[]>();
    for (const { key, value } of rows) {
      const m = /^order:(.+):(\d+)$/.exec(key);
      if (!m || typeof value !== 'string') continue;
      const list = bySession.get(m[1] ?? '') ?? [];
      list.push({ seq: Number(m[2]), child: value });
      bySession.set(m[1] ?? '', list);
    }
    for (const [session, list] of bySession) {
      list.sort((a, b) => a.seq - b.seq);
      const order: string[] = [];
      for (const { seq, child } of list) if (seq === order.length) order.push(child);
      this.lines.set(session, { order, next: 0, appending: Promise.resolve(), waiting: new Map() });
    }
  }

  /** Resolves when child `child` of session `session` may be merged (its place recorded, those before it done). */
  async turn(session: string, child: string): Promise<void> {
    const line = this.line(session);
    let index = line.order.indexOf(child);
    if (index < 0) {
      index = line.order.length;
      line.order.push(child);
      const record = line.appending.then(() => this.journal.record(this.unitId, `order:${session}:${index}`, child));
      line.appending = record.catch(() => undefined);
      const stands = await record;
      // another process recorded a different child there: the run is not deterministic
      if (stands !== child) throw new Error(`merge ${index} into session ${session} was recorded for ${String(stands)}, not ${child}`);
    }
    if (line.next === index) return;
    await new Promise<void>((resolve) => line.waiting.set(child, resolve));
  }

  /** Child `child` of `session` was merged (or failed): the next one's turn. */
  done(session: string, child: string): void {
    const line = this.line(session);
    if (line.order[line.next] !== child) return;
    line.next++;
    const nextChild = line.order[line.next];
    const wake = nextChild === undefined ? undefined : line.waiting.get(nextChild);
    if (nextChild !== undefined && wake) {
      line.waiting.delete(nextChild);
      wake();
    }
  }

  private line(session: string): Line {
    let line = this.lines.get(session);
    if (!line) {
      line = { order: [], next: 0, appending: Promise.resolve(), waiting: new Map() };
      this.lines.set(session, line);
    }
    return line;
  }
}
