/**
 * An `AbortController` made only when its signal is first asked for. Most sessions never
 * look at `s.signal`, and a Node `AbortController` costs a few microseconds to make and an
 * event dispatch to abort — a visible share of a session's cost when thousands run at once.
 * Aborting before anyone asked records the reason; the signal asked for afterwards is already
 * aborted with that reason, exactly as the eager controller's would be.
 */
export class LazyAbortController {
  private controller: AbortController | null = null;
  private aborted: { readonly reason: unknown } | null = null;

  /** The signal (made now if needed). */
  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    if (this.aborted) {
      this.controller = new AbortController();
      this.controller.abort(this.aborted.reason);
      return this.controller.signal;
    }
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** Aborts the signal (or records the reason until a signal is made). Later calls do nothing. */
  abort(reason: unknown): void {
    if (this.controller) this.controller.abort(reason);
    else this.aborted ??= { reason };
  }
}
