import { formatSkillId } from '@cohort/skillbook';
import type { ApplyOptions, DraftBatchResult, DraftOperationResult, OperationFields, OperationLimits, Section, SkillId } from '@cohort/skillbook';
import type { IdLease, LeaseResult } from '@cohort/store';
import type { Clock } from '../Clock.ts';
import type { Draft } from '../Draft.ts';
import type { SessionBatchResult, SessionOperationResult } from '../Session.ts';

/** Where leases come from: the runtime's store. */
export interface LeaseSource {
  leaseIds(count: number): Promise<LeaseResult>;
}

/** How big a runtime's leases are: the first, and the most that doubling (under a burst of ADDs) reaches. */
export const LEASE_SIZE = { first: 128, max: 65_536 } as const;

/** Thrown by the allocator inside a write when no leased id is left; the write is refused whole. */
const EXHAUSTED = Symbol('ids exhausted');

/** What a write that refused for want of ids says. */
const RAN_OUT =
  'no skill id is at hand: the runtime used up its id lease in one synchronous stretch and the next one is on its way; ' +
  'retry the batch after an await (the add_skill tool waits for it)';

function ranOut(): { readonly ok: false; readonly error: { readonly code: 'ids_unavailable'; readonly message: string } } {
  return { ok: false, error: { code: 'ids_unavailable', message: RAN_OUT } };
}

/**
 * The skill ids of one runtime: one allocator for the whole session tree, drawing from **id
 * leases** — blocks of the store's global counter that the store granted this runtime alone,
 * durably — so the id a session is told is the id its skill has in the root book, across any
 * number of runtimes on one store, and the root commits with `allocation: 'leased'` (final ids:
 * the store never renumbers them).
 *
 * The hot path is a counter inside the current lease. The next lease is asked for in the
 * background when half of the current one is used (prefetch); a write that finds none left is
 * refused (`ids_unavailable`), and `whenAvailable` lets an asynchronous caller (the
 * `add_skill` tool) wait for the next lease instead. A lease the store refuses is reported to
 * the waiting callers as an error message, and asked for again on the next need.
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
  /** The draft being written: an id it already holds (a session chose it) is skipped. */
  private writing: Draft | null = null;
  /**
   * While one op is written: the draft's `next_id`. A book keeps `next_id` at or above the number
   * of every id it has, so an id numbered past it is not the draft's, without looking it up (a
   * look-up per ADD, a tenth of add_skill). A batch's earlier ADDs may have named ids past it
   * before the draft counts them: a batch looks every id up.
   */
  private unseenAbove = Infinity;
  /** What every write applies with: made once, not per write (a write is a hot path). */
  private readonly writeOptions: ApplyOptions;

  constructor(
    private readonly source: LeaseSource,
    clock: Clock,
    limits?: OperationLimits,
  ) {
    // a batch past the operation limits is refused before anything of it is applied
    this.writeOptions = { clock, allocateId: (section: Section) => this.allocate(section), ...(limits ? { limits } : {}) };
  }

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

  /** Applies a raw ACE batch to `draft`, allocating the ids of its ADDs from the lease. */
  write(draft: Draft, raw: unknown): SessionBatchResult {
    const result = this.applying(draft, raw, false);
    if (result === null) return ranOut();
    return result.ok ? { ok: true, applied: result.applied, skipped: result.skipped } : { ok: false, error: result.error };
  }

  /** Applies one op to `draft` as {@link SkillIds.write} applies a batch of it (a tool call's write). */
  writeOperation(draft: Draft, op: OperationFields): SessionOperationResult {
    return this.applying(draft, op, true) ?? ranOut();
  }

  /** Applies a batch, or one op, to `draft`; `null` when it ran out of leased ids (refused whole; the next lease is asked for). */
  private applying(draft: Draft, raw: unknown, one: false): DraftBatchResult | null;
  private applying(draft: Draft, op: OperationFields, one: true): DraftOperationResult | null;
  private applying(draft: Draft, raw: unknown, one: boolean): DraftBatchResult | DraftOperationResult | null {
    this.writing = draft;
    if (one) this.unseenAbove = draft.nextId;
    try {
      return one ? draft.writeOperation(raw as OperationFields, this.writeOptions) : draft.write(raw, this.writeOptions);
    } catch (thrown) {
      if (thrown !== EXHAUSTED) throw thrown;
      if (!this.asking) this.grow();
      void this.ask(this.size);
      return null;
    } finally {
      this.writing = null;
      this.unseenAbove = Infinity;
      this.prefetch();
    }
  }

  private allocate(section: Section): SkillId {
    for (;;) {
      if (this.next >= this.end && !this.takeSpare()) throw EXHAUSTED;
      const n = this.next++;
      const id = formatSkillId(section, n);
      if (n > this.unseenAbove || this.writing?.get(id) === undefined) return id;
    }
  }

  /**
   * Someone had to wait, or was refused: the leases are too small for this runtime's pace. They
   * double, and cover twice the `demand` that had to wait: a fan-out whose thousands of children
   * add in rounds would otherwise run dry again at every round (bench row 2).
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

  /** With half of the lease used, the next one is asked for, so that an ADD seldom waits. */
  private prefetch(): void {
    if (this.asking === null && this.spares.length === 0 && this.end - this.next < this.size / 2) void this.ask(this.size);
  }

  /** One request at a time; the promise says why the store refused, or null. */
  private ask(count: number): Promise<string | null> {
    if (this.asking) return this.asking;
    const asking = this.source.leaseIds(Math.min(count, LEASE_SIZE.max)).then(
      (res) => this.answered(res),
      (thrown: unknown) => this.answered({ ok: false, error: { code: 'io', message: `the store failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` } }),
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
