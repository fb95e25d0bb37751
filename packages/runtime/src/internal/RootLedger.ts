import type { AppliedOp, Skillbook, SkillbookDraft } from '@cohort/skillbook';
import type { AppendResult, AuditBlock, Store, StoreError, StoreSnapshot } from '@cohort/store';
import type { AuditEntry } from '../AuditEntry.ts';
import { entryAt, entryOps } from '../AuditEntry.ts';
import type { Clock } from '../Clock.ts';
import type { Commit } from '../Commit.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import type { FailureSeed } from '../FailureSeed.ts';
import { defect, failureSeed } from '../FailureSeed.ts';
import { decideMerge } from '../mergeCommit.ts';
import { refusedCommit } from './refusedCommit.ts';
import type { MergeDecision } from '../mergeCommit.ts';
import type { SessionId } from '../SessionId.ts';
import type { IdsSeam, Seams } from './Seams.ts';
import type { Verdict } from './Verdict.ts';
import { refusalVerdict, refused } from './Verdict.ts';

/** What a root ledger works with. */
export interface LedgerDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** How many recent entries `audit` keeps. */
  readonly auditWindow: number;
  /** What root commits say of their ADD ids. */
  readonly ids: IdsSeam;
  readonly persistedBlocks: Seams['persistedBlocks'];
}

/**
 * The runtime's root book. Merges are decided one at a time against the *speculative* book
 * (the durable one plus merges still on their way to the store), handed to the store in
 * merge order without waiting (so the store can share one fsync among them) — each with its
 * audit blocks, one per session, and `allocation: 'leased'` (every ADD id came from this
 * runtime's id leases: final) — and take effect in `book`, `revision` and `audit` only once
 * the store reports them durable. `audit` keeps only the newest `auditWindow` entries: the
 * history is the store's (`history()`), so memory stays bounded in a long-running process.
 *
 * The store applies every merge itself; the speculative book applies one only when the next
 * merge needs it (it arrives while that one is still on its way). A lone merge — the common
 * case, and a fan-out's one big root commit — is applied once, by the store.
 */
export class RootLedger {
  private durable: Skillbook;
  /** The durable book plus the merges on their way to the store: an open draft, merged into in place. */
  private speculative: SkillbookDraft;
  /** Decided merges on their way to the store, not yet applied to `speculative`. */
  private pending: (readonly AppliedOp[])[] = [];
  private rev: number;
  /** The newest durable entries, at most twice the window (trimmed in batches: O(1) per entry). */
  private entries: AuditEntry[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The newest book other writers produced that arrived while merges were on their way (taken in once none is). */
  private external: StoreSnapshot | null = null;

  private readonly store: Store;
  private readonly clock: Clock;
  private readonly auditWindow: number;
  private readonly ids: IdsSeam;
  private readonly blocksOf: Seams['persistedBlocks'];

  constructor(initial: Skillbook, deps: LedgerDeps) {
    ({ store: this.store, clock: this.clock, auditWindow: this.auditWindow, ids: this.ids } = deps);
    this.blocksOf = deps.persistedBlocks;
    this.durable = initial;
    this.speculative = initial.edit();
    this.rev = initial.revision;
  }

  get book(): Skillbook {
    return this.durable;
  }

  get revision(): number {
    return this.rev;
  }

  /** The newest durable entries of this runtime's merges, at most `auditWindow`, in merge order. */
  get audit(): readonly AuditEntry[] {
    const n = this.entries.length;
    return n > this.auditWindow ? this.entries.slice(n - this.auditWindow) : this.entries;
  }

  /** Loads the store's book; the runtime starts from it. */
  async load(): Promise<StoreSnapshot> {
    const snapshot = await this.store.load();
    this.durable = snapshot.book;
    this.speculative = snapshot.book.edit();
    this.pending = [];
    this.rev = snapshot.revision;
    return snapshot;
  }

  /**
   * Decides a root session's commit and, when it has ops, hands it to the store. `done` is
   * called once with the verdict: at once for a refusal or an empty commit, after the store
   * made the commit durable otherwise.
   */
  merge(commit: Commit, policy: ConflictPolicy, done: (verdict: Verdict) => void): void {
    this.catchUp();
    const expectedRevision = this.speculative.revision;
    const result = decideMerge(this.speculative, commit, policy);
    if (!result.ok) {
      if (result.kind === 'conflict') this.store.recordRefused?.(refusedCommit(commit, result, this.clock.now()));
      done(refusalVerdict(result));
      return;
    }
    if (result.ops.length === 0) {
      done({ ok: true, revision: this.rev, merge: result });
      return;
    }
    const at = this.clock.now();
    const append = this.store
      .append({
        expectedRevision,
        // with nothing else on its way, our revision is one the store reported: check it exactly
        basis: this.inFlight.size === 0 ? 'store' : 'speculative',
        sessionId: commit.sessionId,
        path: commit.path,
        entries: this.blocksOf(commit, result.entries, at),
        // ids chosen by a session are final too: with every other one leased, none is renumbered
        allocation: this.ids.allocation,
        at,
      })
      .then(
        (res) => (res.ok ? this.landed(result, res) : refused(storeRefusal(commit.sessionId, res.error))),
        // the store's `append` never rejects: one that does is a defect of the store
        (thrown: unknown) => refused(defect(`the store failed while appending the commit of ${commit.sessionId}`, thrown)),
      )
      .then((verdict) => {
        this.inFlight.delete(append);
        // nothing left on its way: the store's book is the truth again (it may hold other writers' work)
        if (this.inFlight.size === 0) {
          this.speculative = this.durable.edit();
          this.pending = [];
          if (this.external) this.takeIn(this.external);
        }
        done(verdict);
      });
    // only now: a store whose `append` threw took nothing, and the speculative book must not either
    this.pending.push(result.ops);
    this.inFlight.add(append);
  }

  /**
   * A newer book the store took in from other writers (`Store.external$`): it becomes the
   * durable book at once when no merge is on its way (sessions spawned from now on start from
   * it), or once none is. An older one changes nothing.
   */
  takeIn(snapshot: StoreSnapshot): void {
    if (snapshot.revision <= this.rev) {
      this.external = null;
      return;
    }
    if (this.inFlight.size > 0) {
      this.external = snapshot;
      return;
    }
    this.external = null;
    this.durable = snapshot.book;
    this.speculative = snapshot.book.edit();
    this.rev = snapshot.revision;
  }

  /** A merge the store made durable: the durable book, revision and audit move on. */
  private landed(result: MergeDecision, res: Extract<AppendResult, { ok: true }>): Verdict {
    if (res.revision > this.rev) {
      this.durable = res.book;
      this.rev = res.revision;
    }
    // the audit is what the store persisted: it drops a REMOVE of a skill that was removed already
    const entries = persistedEntries(result, res.entries);
    for (const e of entries) this.entries.push(entryAt(e, res.revision));
    if (this.entries.length >= 2 * this.auditWindow) this.entries = this.entries.slice(-this.auditWindow);
    const merge = entries === result.entries ? result : { ...result, entries, ops: entryOps(entries) };
    return { ok: true, revision: res.revision, merge };
  }

  /**
   * Applies the merges still on their way to the speculative book. One that does not apply is
   * left out (the store decides it on its own book and refuses it too), and the speculative
   * book is rebuilt from the store's as soon as nothing is on its way.
   */
  private catchUp(): void {
    for (const ops of this.pending) this.speculative.replay(ops);
    this.pending = [];
  }

  /** Resolves when every merge handed to the store has been answered. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}

/** The failure of a commit the store refused: a conflict or an invalid commit as such; anything else (I/O, lock, closed) crashes the session. */
function storeRefusal(sessionId: string, error: StoreError): FailureSeed {
  const kind = error.code === 'conflict' || error.code === 'invalid_commit' ? error.code : 'crashed';
  return failureSeed(kind, `the store refused the commit of ${sessionId}: ${error.message}`, {
    ...(error.conflicts ? { conflicts: error.conflicts } : {}),
    error: Object.assign(new Error(error.message, { cause: error.cause }), { name: 'StoreError', code: error.code }),
  });
}

/**
 * The entries the store says it persisted (`blocks`), when that is not all of them; `result`'s
 * own otherwise (the common case: no copy). A store that does not say is taken to have
 * persisted them all.
 */
function persistedEntries(result: MergeDecision, blocks: readonly AuditBlock[] | undefined): readonly AuditEntry[] {
  if (blocks === undefined) return result.entries;
  let ops = 0;
  for (const b of blocks) ops += b.ops.length;
  if (ops === result.ops.length) return result.entries;
  return blocks.map((b) => ({
    revision: 0,
    sessionId: b.sessionId as SessionId,
    path: b.path as readonly SessionId[],
    name: b.name,
    ops: b.ops,
  }));
}
