import { ReplaySubject, Subject } from 'rxjs';
import type { StoreError, StoreNotice, StoreSnapshot } from '@cohort/store';
import type { CommitSequencer } from '@cohort/store/adapter';
import { occurrenceId } from '@cohort/store/adapter';
import type { ResolvedPostgresOptions } from '../PostgresStoreOptions.ts';
import type { CaughtUp, Position } from './catchUp.ts';
import type { Database } from './Database.ts';
import type { DecidedGroup } from './decideGroup.ts';
import { inSchema } from './migrations.ts';

/**
 * What the parts of one open store share: the options, the pool, the sequencer that holds the
 * store's book, where this writer stands in the database, and the streams it reports on.
 */
export class StoreState {
  readonly notices = new Subject<StoreNotice>();
  /** Books that other writers' commits produced, as this store took them in. */
  readonly external = new ReplaySubject<StoreSnapshot>(1);
  poisoned: StoreError | null = null;
  readonly openedAt: number;

  constructor(
    readonly options: ResolvedPostgresOptions,
    readonly db: Database,
    readonly sequencer: CommitSequencer,
    readonly position: Position,
  ) {
    this.openedAt = options.clock.now();
  }

  private base(kind: string, ...parts: (string | number)[]): { id: string; at: number; document: string } {
    return { id: occurrenceId(kind, this.options.display, ...parts), at: this.options.clock.now(), document: this.options.display };
  }

  /** Reports what a catch-up took in: other writers' commits (a notice, and the new book to whoever follows them). */
  tookIn(caught: CaughtUp): void {
    if (caught.to === caught.from) return;
    const book = caught.book;
    this.notices.next({
      type: 'store.adopted',
      ...this.base('adopted', 'cohort', caught.from, caught.to, this.options.writerId),
      revision: caught.to,
      fromRevision: caught.from,
      diskDigest: '',
      rebased: 0,
      idMap: {},
      external: { added: [], changed: [], removed: [], dropped: [], counts: { added: 0, changed: 0, removed: 0, dropped: 0 } },
      source: 'cohort',
      writerId: caught.writers[0] ?? null,
      commits: caught.commits,
    });
    this.external.next({ book, revision: book.revision });
  }

  /** Reports what an acknowledged group did on its own: the ids it renumbered (the notices its log rows hold). */
  acknowledged(group: DecidedGroup): void {
    for (const record of group.rows.log) if (record['kind'] === 'notice') this.notices.next(record['body'] as StoreNotice);
  }

  /** Stops every further append (the database's state is not known any more). */
  poison(error: StoreError): void {
    this.poisoned ??= error;
  }

  /** Reports an I/O failure as a notice, and logs it when the database can be reached (without waiting for it). */
  reportIo(operation: string, message: string, refused: number, poisoned: boolean): void {
    const notice: StoreNotice = {
      type: 'store.io_failed',
      ...this.base('io_failed', operation, message, this.options.clock.now()),
      operation,
      file: this.options.display,
      message,
      refused,
      poisoned,
    };
    this.notices.next(notice);
    void this.log(notice);
  }

  /** Writes a notice to the log table, best effort (the database may be what failed). */
  async log(notice: StoreNotice): Promise<void> {
    await this.db
      .with((client) =>
        client.query(inSchema('INSERT INTO {schema}.log (kind, type, writer_id, body) VALUES ($1, $2, $3, $4)', this.options.schema), [
          'notice',
          notice.type,
          this.options.writerId,
          JSON.stringify(notice),
        ]),
      )
      .catch(() => undefined);
  }
}
