import type { Observable } from 'rxjs';
import type { Skillbook } from '@cohort/skillbook';
import type {
  AppendResult,
  CommitRecord,
  HistoryOptions,
  HistoryPage,
  LeaseResult,
  OpenResult,
  RefusedCommit,
  Store,
  StoreError,
  StoreNotice,
  StoreSnapshot,
} from '@cohort/store';
import { ResyncWindow } from '@cohort/store/adapter';
import type { PostgresStoreOptions } from './PostgresStoreOptions.ts';
import { resolvePostgresOptions, urlAsGiven } from './PostgresStoreOptions.ts';
import { catchUp, readHeadFrom, takeIn } from './internal/catchUp.ts';
import { messageOf } from './internal/Database.ts';
import { channelOf } from './internal/groupSql.ts';
import { GroupWriter } from './internal/GroupWriter.ts';
import { importInto } from './internal/importInto.ts';
import type { ImportResult } from './ImportResult.ts';
import { countRefusedCommits, readHistoryPage, readLoggedNotices } from './internal/readHistoryPage.ts';
import { Listener } from './internal/Listener.ts';
import { openDatabase } from './internal/openDatabase.ts';
import { RefusalLog } from './internal/RefusalLog.ts';
import type { StoreState } from './internal/StoreState.ts';

const closedError = (): StoreError => ({ code: 'closed', message: 'the store is closed' });

/**
 * A store in PostgreSQL, for several processes or machines sharing one Skillbook. Every
 * group of appends is one transaction that locks the book's row (a compare-and-set across
 * every writer), checks each commit against what changed since its base with the same
 * conflict table as the other stores, and is acknowledged only after `COMMIT` returned. Id
 * leases are blocks of a sequence. Other runtimes learn of new revisions through
 * `LISTEN`/`NOTIFY` ({@link PostgresStore.external$}) and catch up from the commits table
 * when notifications were missed. See docs/postgres.md.
 *
 * @example
 * ```ts
 * const opened = await PostgresStore.open({ url: process.env.COHORT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', schema: 'cohort_example' });
 * if (!opened.ok) throw new Error(describeOpenError(opened.error));
 * const rt = createRuntime({ store: opened.store });
 * ```
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly openNotices: readonly StoreNotice[] = [];
  readonly notices$: Observable<StoreNotice>;
  /** The books other writers' commits produced, as this store takes them in (the newest is replayed to a new subscriber). */
  readonly external$: Observable<StoreSnapshot>;
  private readonly writer: GroupWriter;
  private readonly refusals: RefusalLog;
  private readonly resync: ResyncWindow;
  private readonly listener: Listener | null;
  private catchUpQueued = false;
  private alongside: Promise<void> | null = null;
  private heardAgain = false;
  private heardWhileBusy = false;
  private closing: Promise<void> | null = null;

  private constructor(private readonly s: StoreState) {
    this.notices$ = s.notices.asObservable();
    this.external$ = s.external.asObservable();
    this.writer = new GroupWriter(s, () => this.idle());
    this.refusals = new RefusalLog(s, (task) => this.writer.run(task));
    this.resync = new ResyncWindow(s.options.clock, s.sequencer);
    this.listener = s.options.listen
      ? new Listener({
          connect: () => s.db.client(),
          channel: channelOf(s.options.schema),
          clock: s.options.clock,
          onRevision: (r) => this.heard(r),
        })
      : null;
  }

  /**
   * Opens the store in `options.schema` (default `cohort`) of the database at `options.url`:
   * connects, applies the migrations it lacks (under an advisory lock), creates the store
   * when it does not exist, reads the book and starts listening. Never throws: a database it
   * cannot reach, a schema migrated by a newer version, or bad options are a value.
   */
  static async open(options: PostgresStoreOptions): Promise<OpenResult<PostgresStore>> {
    const resolved = resolvePostgresOptions(options);
    if (typeof resolved === 'string') {
      const file = typeof options?.url === 'string' ? urlAsGiven(options.url) : 'postgres';
      return { ok: false, error: { code: 'invalid_options', message: `invalid options: ${resolved}`, file } };
    }
    const opened = await openDatabase(resolved);
    if (!opened.ok) return opened;
    const store = new PostgresStore(opened.state);
    await store.listener?.start();
    return { ok: true, store, notices: [] };
  }

  /** The store's schema. */
  get schema(): string {
    return this.s.options.schema;
  }

  /** The database and schema, as notices and errors name them (`postgres://user@host:port/db?schema=…`, no password). */
  get url(): string {
    return this.s.options.display;
  }

  /** This writer's id (in the commits it writes). */
  get writerId(): string {
    return this.s.options.writerId;
  }

  /** The store's current book (acknowledged merges, and what it took in from other writers). */
  get book(): Skillbook {
    return this.s.sequencer.book;
  }

  /** The book the store holds now: never `null` for this store (it reads the book when it opens). */
  current(): StoreSnapshot {
    const book = this.s.sequencer.book;
    return { book, revision: book.revision };
  }

  /** Catches up with what other writers committed and returns the current book. */
  async load(): Promise<StoreSnapshot> {
    if (!this.closing) await this.writer.run(() => this.catchUp()).catch(() => undefined);
    return this.current();
  }

  /** Appends a merged commit; resolves once its transaction committed, or with a structured refusal. Never rejects. */
  async append(commit: CommitRecord): Promise<AppendResult> {
    if (this.closing) return { ok: false, error: closedError() };
    return this.resync.watch(() => this.writer.append(commit));
  }

  /** Grants the next `count` ids of the global counter (at most 1,000,000), a block of the `skill_ids` sequence, committed before it resolves. */
  async leaseIds(count: number): Promise<LeaseResult> {
    if (this.closing) return { ok: false, error: closedError() };
    return this.writer.lease(count);
  }

  /** Reads the commits past revision `after`, at most `limit` (default 100), from the commits table, in revision order. */
  history(options: HistoryOptions = {}): Promise<HistoryPage> {
    return readHistoryPage(this.s, options);
  }

  /** Records a commit the runtime refused before it reached the store as a `conflict` row of the log table, as the store's own refusals are. */
  recordRefused(refused: RefusedCommit): void {
    if (!this.closing) this.refusals.add(refused);
  }

  /** How many refused commits the log table records (its `conflict` rows). */
  refusedCommits(): Promise<number> {
    return countRefusedCommits(this.s);
  }

  /** The notices recorded in the store's log table, oldest first (commits refused for conflicts are in it too, as `conflict` rows). */
  loggedNotices(): Promise<StoreNotice[]> {
    return readLoggedNotices(this.s);
  }

  /**
   * Loads an ACE schema-v2 document (its text) into this store, which must be empty: its
   * skills, `next_id` and similarity decisions become revision 1, one `external` commit
   * (reason `created`) in the history. Refused as a value (`invalid_request`) when the store
   * is not empty or the text is not such a document; nothing is written then.
   */
  importDocument(text: string): Promise<ImportResult> {
    if (this.closing) return Promise.resolve({ ok: false, error: closedError() });
    return this.writer.run(() => importInto(this.s, text));
  }

  /** Waits for the appends in flight, stops listening, closes the pool and completes `notices$` and `external$`. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.resync.dispose();
      await this.writer.idle();
      await this.listener?.stop();
      await this.s.db.end();
      this.s.notices.complete();
      this.s.external.complete();
    })();
    return this.closing;
  }

  /**
   * A notification (or a reconnection of the listener): catch up, unless we have that revision
   * already. Not while the writer is busy: its group's read under the book's lock takes in the
   * same commits, and a second read beside it would only take processor time from the writer
   * that holds the lock (every other writer waits on that one). What was heard meanwhile is
   * taken in once the writer is idle.
   */
  private heard(revision: number | null): void {
    if (this.closing) return;
    if (revision !== null && revision <= this.s.sequencer.book.revision) return;
    if (this.writer.busy) {
      this.heardWhileBusy = true;
      return;
    }
    if (this.alongside) {
      this.heardAgain = true;
      return;
    }
    this.alongside = this.catchUpAlongside().finally(() => {
      this.alongside = null;
      if (this.heardAgain) {
        this.heardAgain = false;
        this.heard(null);
      }
    });
  }

  /** The writer has nothing left to write: take in what was heard meanwhile. */
  private idle(): void {
    if (!this.heardWhileBusy) return;
    this.heardWhileBusy = false;
    this.heard(null);
  }

  /**
   * Reads what was committed past this writer's position and takes it in, unless a group took
   * the lock meanwhile (its own read, under the lock, takes it in then). What one read cannot
   * take in (more pages, or a book to read again) is left to a catch-up in the writer's order.
   */
  private async catchUpAlongside(): Promise<void> {
    const s = this.s;
    try {
      const read = await s.db.with((client) => readHeadFrom(client, s.options.schema, s.sequencer, s.position, false));
      if (this.closing || this.writer.deciding) return;
      const taken = takeIn(s.sequencer, s.position, read);
      s.tookIn(taken.caught);
      if (taken.rest !== 'none') this.catchUpInTurn();
    } catch (error) {
      s.reportIo('catch up', messageOf(error), 0, false);
    }
  }

  /** Catches up in the writer's order, once (a second call while one is queued adds nothing). */
  private catchUpInTurn(): void {
    if (this.catchUpQueued) return;
    this.catchUpQueued = true;
    void this.writer
      .run(async () => {
        this.catchUpQueued = false;
        if (!this.closing) await this.catchUp();
      })
      .catch(() => undefined);
  }

  /** Takes in other writers' commits (outside a transaction: what was committed so far). */
  private async catchUp(): Promise<void> {
    const s = this.s;
    try {
      const caught = await s.db.with((client) => catchUp(client, s.options.schema, s.sequencer, s.position));
      s.tookIn(caught);
    } catch (error) {
      s.reportIo('catch up', messageOf(error), 0, false);
    }
  }
}
