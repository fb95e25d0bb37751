import { formatSkillId } from '@cohort/skillbook';
import type { Section, SkillId } from '@cohort/skillbook';
import type { IdLease, LeaseResult } from '@cohort/store';

/** Where leases come from: the runtime's store. */
export interface LeaseSource {
  leaseIds(count: number): Promise<LeaseResult>;
}

/** How big a runtime's leases are: the first, and the most that doubling (under a burst of ADDs) reaches. */
export const LEASE_SIZE = { first: 128, max: 65_536 } as const;

/**
 * The skill ids of one runtime: one allocator for the whole session tree, drawing from **id
 * leases** — blocks of the store's global counter that the store granted this runtime alone,
 * durably — so the id a session is told is the id its skill has in the root book, across any
 * number of runtimes on one store, and the root commits with `allocation: 'leased'` (final ids:
 * the store never renumbers them).
 *
 * It hands out ids and nothing else: a session's writes take them through
 * `ApplyOptions.allocateId` and skip the ones their draft holds already. An id is a counter
 * inside the current lease; the next lease is asked for in the background when half of the
 * current one is used. When none is left `allocate` answers null (the write is refused,
 * `ids_unavailable`), and `whenAvailable` lets an asynchronous caller (the `add_skill` tool)
 * wait for the next lease instead. A lease the store refuses is reported to the waiting
 * callers as an error message, and asked for again on the next need.
 */
export class SkillIds {
  private next = 0;
  private end = 0;
  /** Leases granted and not begun yet, oldest first. */
  private readonly spares: IdLease[] = [];
  private asking: Promise<string | null> | null = null;
  /** What the ADDs waiting for a lease wait on, and how many ids they need. */
  private waiting: Promise<string | null> | null = null;
  private demand = 0;
  private size: number = LEASE_SIZE.first;

  constructor(private readonly source: LeaseSource) {}

  /** Asks for the first lease; resolves (never rejects) once it is answered, with why it was refused or null. */
  start(): Promise<string | null> {
    return this.ask(this.size);
  }

  /** Leased ids not allocated yet. */
  get available(): number {
    let n = this.end - this.next;
    for (const lease of this.spares) n += lease.to - lease.from;
    return n;
  }

  /**
   * Null when `count` ids can be allocated now; otherwise a promise that resolves once the next
   * lease was answered: with null (look again), or with why no lease could be had.
   */
  whenAvailable(count: number): Promise<string | null> | null {
    if (this.available >= count) return null;
    this.demand += count;
    this.waiting ??= this.nextLease();
    return this.waiting;
  }

  /**
   * The lease the waiting ADDs get: asked for once the current synchronous stretch is over, so
   * that one lease covers every ADD that found none in it (a fan-out's children all add at once).
   */
  private async nextLease(): Promise<string | null> {
    await undefined;
    if (!this.asking) this.grow(this.demand);
    const error = await (this.asking ?? this.ask(Math.max(this.size, this.demand - this.available)));
    this.waiting = null;
    this.demand = 0;
    return error;
  }

  /**
   * The next leased id, formatted for `section`; null when none is at hand — the write that
   * asked is refused (`ids_unavailable`), and the next lease is asked for, larger.
   */
  allocate(section: Section): SkillId | null {
    if (this.next >= this.end && !this.takeSpare()) {
      if (!this.asking) this.grow();
      void this.ask(this.size);
      return null;
    }
    return formatSkillId(section, this.next++);
  }

  /**
   * Someone had to wait, or was refused: the leases are too small for this runtime's pace. They
   * double, and cover twice the `demand` that had to wait: a fan-out whose thousands of children
   * add in rounds would otherwise run dry again at every round.
   */
  private grow(demand = 0): void {
    this.size = Math.min(LEASE_SIZE.max, Math.max(this.size * 2, demand * 2));
  }

  private takeSpare(): boolean {
    const lease = this.spares.shift();
    if (!lease) return false;
    this.next = lease.from;
    this.end = lease.to;
    return true;
  }

  /**
   * With half of the lease used, asks for the next one ahead, so that an ADD seldom waits. Called
   * after each write rather than inside it: a write whose ADDs run the lease dry has asked for a
   * larger one already, instead of finding an ordinary one on its way.
   */
  prefetch(): void {
    if (this.asking === null && this.spares.length === 0 && this.end - this.next < this.size / 2) void this.ask(this.size);
  }

  /** One request at a time; the promise says why the store refused, or null. */
  private ask(count: number): Promise<string | null> {
    if (this.asking) return this.asking;
    const asking = this.source.leaseIds(Math.min(count, LEASE_SIZE.max)).then(
      (res) => this.answered(res),
      (thrown: unknown) =>
        this.answered({
          ok: false,
          error: { code: 'io', message: `the store failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` },
        }),
    );
    this.asking = asking;
    return asking;
  }

  private answered(res: LeaseResult): string | null {
    this.asking = null;
    if (!res.ok) return `the store granted no id lease: ${res.error.message}`;
    this.spares.push(res.lease);
    if (this.next >= this.end) this.takeSpare();
    return null;
  }
}
