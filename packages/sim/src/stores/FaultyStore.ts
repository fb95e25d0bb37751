import type { AppendResult, CommitRecord, Store } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';

/** Which append fails, and how. */
export interface StoreFault {
  /** 1-based. */
  readonly append: number;
  /** `refusal`: an `io` error value (a write error); `throw`: a defective adapter that rejects. */
  readonly as: 'refusal' | 'throw';
}

/**
 * A {@link Store} wrapper that fails one append: the memory store's stand-in for a disk
 * write error. The runtime must turn it into a `crashed` failure of that commit's session,
 * and nothing of the commit may reach the book.
 *
 * @example
 * const store = new FaultyStore(new MemoryStore(), { append: 2, as: 'refusal' }, (f) => log.push(f));
 */
export class FaultyStore extends DelegatingStore {
  private count = 0;

  constructor(
    inner: Store,
    private readonly fault: StoreFault,
    private readonly onFault: (description: string) => void,
  ) {
    super(inner);
  }

  override append(commit: CommitRecord): Promise<AppendResult> {
    this.count += 1;
    if (this.count !== this.fault.append) return this.inner.append(commit);
    this.onFault(
      `store append #${this.count} (${commit.sessionId}) ${this.fault.as === 'throw' ? 'throws' : 'is refused with an io error'}`,
    );
    if (this.fault.as === 'throw') return Promise.reject(new Error(`simulated store defect on append #${this.count}`));
    return Promise.resolve({ ok: false, error: { code: 'io', message: `simulated write error on append #${this.count}` } });
  }
}
