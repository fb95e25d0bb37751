import type { AppliedOp } from '@cohort/skillbook';
import { commitOps } from '@cohort/store';
import type { AppendResult, CommitRecord, Store } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';

/**
 * One append the runtime handed its store, and how it ended. `aliveAtSubmit` /
 * `aliveAtResult` say whether the simulated process was still alive: an append refused
 * *because* the process crashed under it is in doubt (it may have reached the disk whole).
 */
export interface AppendRecord {
  readonly sessionId: string;
  readonly ops: readonly AppliedOp[];
  readonly aliveAtSubmit: boolean;
  result: 'pending' | 'acknowledged' | 'refused' | 'threw';
  aliveAtResult: boolean | null;
}

/**
 * A transparent {@link Store} wrapper that records every append and its outcome: what the
 * runtime was told is durable. Invariant 7 compares a reopened store with exactly this.
 *
 * @example
 * const recording = new RecordingStore(new MemoryStore(), () => true);
 * const rt = createRuntime({ store: recording });
 */
export class RecordingStore extends DelegatingStore {
  readonly appends: AppendRecord[] = [];

  constructor(
    inner: Store,
    private readonly alive: () => boolean,
  ) {
    super(inner);
  }

  override append(commit: CommitRecord): Promise<AppendResult> {
    const record: AppendRecord = {
      sessionId: commit.sessionId,
      ops: commitOps(commit),
      aliveAtSubmit: this.alive(),
      result: 'pending',
      aliveAtResult: null,
    };
    this.appends.push(record);
    return this.inner.append(commit).then(
      (result) => {
        record.result = result.ok ? 'acknowledged' : 'refused';
        record.aliveAtResult = this.alive();
        return result;
      },
      (thrown: unknown) => {
        record.result = 'threw';
        record.aliveAtResult = this.alive();
        throw thrown;
      },
    );
  }
}
