import { ReplaySubject, Subject, concat, defer, from } from 'rxjs';
import type { Observable } from 'rxjs';
import type { StoreFs } from '../../StoreFs.ts';
import { StoreNoticeSchema } from '../../StoreNotice.ts';
import type { StoreNotice } from '../../StoreNotice.ts';
import { fromUtf8, utf8 } from './digest.ts';

/** Routine notices are not recorded in the conflict log: saves, and taking in another Cohort writer's commits. */
function isRoutine(notice: StoreNotice): boolean {
  if (notice.type === 'store.saved') return true;
  if (notice.type !== 'store.adopted' || notice.source !== 'cohort') return false;
  const c = notice.external.counts;
  return c.added + c.changed + c.removed + c.dropped === 0;
}

/** Reads the conflict log's records, skipping lines that are not records (the log is advisory). */
export async function readConflictLog(fs: StoreFs, path: string): Promise<StoreNotice[]> {
  const bytes = await fs.readFile(path);
  if (!bytes) return [];
  const out: StoreNotice[] = [];
  for (const text of (fromUtf8(bytes) ?? '').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const parsed = StoreNoticeSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a torn last record: ignored, the next append starts a new line
    }
  }
  return out;
}

/**
 * Emits each notice once per occurrence (by its `id`) and records every non-routine one in
 * the append-only conflict log beside the document, unless a record with that id is already
 * there (an occurrence re-detected after a crash is not logged twice). Notices emitted while
 * the store opens are replayed to every subscriber, so a runtime created after `open`
 * still sees them.
 */
export class NoticeLog {
  private readonly live = new Subject<StoreNotice>();
  private readonly opening = new ReplaySubject<StoreNotice>();
  private readonly openingNotices: StoreNotice[] = [];
  private readonly emitted = new Set<string>();
  private readonly logged = new Set<string>();
  private opened = false;
  /** The log's last line is torn: the next record starts on a fresh line. */
  private torn = false;
  readonly notices$: Observable<StoreNotice>;

  constructor(
    private readonly fs: StoreFs,
    private readonly path: string,
  ) {
    this.notices$ = defer(() => (this.opened ? concat(from(this.openingNotices), this.live) : concat(this.opening, this.live)));
  }

  /** Loads the ids already in the conflict log. */
  async load(): Promise<void> {
    for (const record of await readConflictLog(this.fs, this.path)) this.logged.add(record.id);
    const bytes = await this.fs.readFile(this.path);
    this.torn = bytes !== undefined && bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  }

  /** The notices emitted while opening. */
  get openNotices(): readonly StoreNotice[] {
    return this.openingNotices;
  }

  /** Ends the opening phase: later notices go to live subscribers only. */
  markOpened(): void {
    this.opened = true;
    this.opening.complete();
  }

  /** Whether an occurrence has been recorded or emitted already. */
  seen(id: string): boolean {
    return this.emitted.has(id) || this.logged.has(id);
  }

  /** Appends the record to the conflict log (durably), once per id. */
  async record(notice: StoreNotice): Promise<void> {
    if (isRoutine(notice) || this.logged.has(notice.id)) return;
    const handle = await this.fs.openAppend(this.path);
    try {
      await handle.append(utf8(`${this.torn ? '\n' : ''}${JSON.stringify(notice)}\n`));
      await handle.sync();
      this.torn = false;
    } catch (error) {
      // part of the record may have reached the file (a full disk): the next one starts a new line
      this.torn = true;
      throw error;
    } finally {
      await handle.close();
    }
    this.logged.add(notice.id);
  }

  /** Emits a notice (once per id), recording it first. A failure to record does not stop the notice. */
  async emit(notice: StoreNotice): Promise<void> {
    if (this.emitted.has(notice.id)) return;
    this.emitted.add(notice.id);
    await this.record(notice).catch(() => undefined);
    if (this.opened) this.live.next(notice);
    else {
      this.openingNotices.push(notice);
      this.opening.next(notice);
    }
  }

  /** Completes `notices$`. */
  complete(): void {
    this.opening.complete();
    this.live.complete();
  }
}
