import type { ApplyOptions, OperationFields, Section, Skill, Skillbook, SkillId } from '@cohort/skillbook';
import type { Usage } from '../Budget.ts';
import type { Limits } from '../Limits.ts';
import type { ChargeResult, Session, SessionBatchResult, SessionBody, SessionOperationResult, SpawnOptions } from '../Session.ts';
import type { SessionCall } from '../SessionCall.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import { createSkillTools } from '../tools.ts';
import type { SkillToolName, SkillTools, ToolHost } from '../tools.ts';
import type { SessionHost, SessionNode } from './SessionNode.ts';

/** The {@link Session} a body receives: a thin view over the runtime's record of it. */
export class SessionHandle<I = unknown> implements Session<I> {
  private toolset: SkillTools | null = null;
  private writer: SessionWrites | null = null;

  constructor(
    /** The runtime's record of the session (read by `sessionDraft.ts`; not part of the public API). */
    readonly node: SessionNode,
    private readonly host: SessionHost,
  ) {}

  /** Made on first use: a session that only spawns, or writes batches, never pays for them. */
  get tools(): SkillTools {
    return (this.toolset ??= this.host.tracing.tools(this.node.trace, createSkillTools(this.writes)));
  }

  /** Where the session's writes go, made on first use. */
  private get writes(): SessionWrites {
    return (this.writer ??= new SessionWrites(this.node, this.host));
  }

  get id(): SessionId {
    return this.node.id;
  }

  get path(): readonly SessionId[] {
    return this.node.path;
  }

  get depth(): number {
    return this.node.depth;
  }

  get name(): string | undefined {
    return this.node.name;
  }

  get input(): I {
    return this.node.input as I;
  }

  get attempt(): number {
    return this.node.attempt;
  }

  get limits(): Limits {
    return this.host.limits;
  }

  get book(): Skillbook {
    return this.node.draft.book;
  }

  get signal(): AbortSignal {
    return this.node.controller.signal;
  }

  applyBatch(raw: unknown): SessionBatchResult {
    const ended = this.node.endedReason();
    return ended ? { ok: false, error: { code: 'session_ended', message: ended } } : this.writes.batch(raw);
  }

  spawn<CI, CO>(body: SessionBody<CI, CO>, options: SpawnOptions<CI> = {}): Promise<SessionOutcome<CO>> {
    return this.host.spawn(this.node, body as SessionBody<never, unknown>, options) as Promise<SessionOutcome<CO>>;
  }

  abort(reason = 'aborted by its body'): void {
    this.node.tell({ type: 'ABORT', reason });
  }

  charge(usage: Usage): ChargeResult {
    const ended = this.node.endedReason();
    if (ended) return { ok: false, message: ended };
    const refusal = this.node.budget.charge(usage);
    if (refusal) {
      const message = `budget exhausted: asked for ${refusal.asked} ${refusal.meter} with ${refusal.remaining} left`;
      this.node.tell({ type: 'OVER_BUDGET', message });
      return { ok: false, message };
    }
    return { ok: true, remaining: this.node.budget.remaining() };
  }

  record(call: SessionCall): void {
    this.host.sessionCalled(this.node, call);
  }

  sleep(ms: number): Promise<void> {
    const signal = this.node.controller.signal;
    const clock = this.host.clock;
    const slept = new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError(signal));
        return;
      }
      const onAbort = () => {
        clock.clearTimeout(handle);
        reject(abortError(signal));
      };
      const handle = clock.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // already handled: a body that stopped listening must not cause an unhandled rejection
    slept.catch(() => undefined);
    return slept;
  }
}

/**
 * A session's writes, straight into its draft: its batches (`s.applyBatch`) and its tools'
 * ops, with the runtime's clock and limits and ids from its leases. Whoever calls has checked
 * that the session may still write; this checks nothing again.
 */
class SessionWrites implements ToolHost {
  private readonly options: ApplyOptions;

  constructor(
    private readonly node: SessionNode,
    private readonly host: SessionHost,
  ) {
    this.options = { clock: host.clock, limits: host.operationLimits, allocateId: (section) => this.newId(section) };
  }

  get limits(): Limits {
    return this.host.limits;
  }

  endedReason(): string | null {
    return this.node.endedReason();
  }

  get book(): { get(id: string): Skill | undefined } {
    return this.node.draft;
  }

  batch(raw: unknown): SessionBatchResult {
    const result = this.node.draft.write(raw, this.options);
    this.host.ids.prefetch();
    return result;
  }

  writeOperation(op: OperationFields): SessionOperationResult {
    const result = this.node.draft.writeOperation(op, this.options);
    this.host.ids.prefetch();
    return result;
  }

  whenIds(count: number): Promise<string | null> | null {
    return this.host.ids.whenAvailable(count);
  }

  /** A leased id the draft holds no skill under (the session may have named one itself); null when none is at hand. */
  private newId(section: Section): SkillId | null {
    for (;;) {
      const id = this.host.ids.allocate(section);
      if (id === null || this.node.draft.get(id) === undefined) return id;
    }
  }

  refused(tool: SkillToolName, error: string): void {
    this.node.noteRefusedCall(tool, error);
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return new Error(`session ended: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
}
