import { createHash } from 'node:crypto';
import { Skillbook } from '@cohort/skillbook';
import type { Clock } from '@cohort/runtime';
import type { AppliedOp } from '@cohort/skillbook';
import type { SimFs } from '@cohort/store';
import type { TimelineEvent } from '../SimReport.ts';
import type { ExternalOpPlan, ExternalPlan, ExternalSavePlan } from './ExternalPlan.ts';

/** One save the other program made: what it started from, what it changed, what it wrote. */
export interface ExternalSaveRecord {
  readonly epoch: number;
  /** sha256 of the document it wrote. */
  readonly digest: string;
  /** The book it wrote (as Cohort reads it). */
  readonly saved: Skillbook;
  /** The book it started from: the document it loaded, or (long-running) its own last save. */
  readonly base: Skillbook;
  /** sha256 of that document. */
  readonly baseDigest: string;
  readonly ops: readonly AppliedOp[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The other program of a simulated run, on the simulated disk: ACE's load–change–save loop
 * (Cohort's Skillbook reads and writes ACE's documents byte for byte, and allocates ids from
 * the `next_id` it loaded, as ACE does), timestamps from the simulated clock. A long-running
 * one keeps its book across saves and across Cohort's restarts. Records every save.
 */
export class SimAceWriter {
  readonly saves: ExternalSaveRecord[] = [];
  private memory: { readonly book: Skillbook; readonly digest: string } | null = null;
  private count = 0;
  private ticks = 0;

  constructor(
    readonly plan: ExternalPlan,
    private readonly sim: SimFs,
    private readonly clock: Clock,
    private readonly document: string,
    private readonly note: (event: TimelineEvent) => void = () => undefined,
  ) {}

  /** Makes the saves planned for before epoch `epoch` (1-based) opens its store. */
  beforeOpen(epoch: number): void {
    for (const s of this.plan.saves[epoch - 1] ?? []) if (s.at === 'before-open') this.save(epoch, s);
  }

  /** Schedules the saves planned while epoch `epoch` runs; resolves when the last is made. */
  during(epoch: number): Promise<void> {
    const planned = (this.plan.saves[epoch - 1] ?? []).filter((s): s is ExternalSavePlan & { at: number } => s.at !== 'before-open');
    return Promise.all(
      planned.map(
        (s) =>
          new Promise<void>((resolve) => {
            this.clock.setTimeout(() => {
              this.save(epoch, s);
              resolve();
            }, s.at);
          }),
      ),
    ).then(() => undefined);
  }

  private load(): { book: Skillbook; digest: string } | null {
    if (this.plan.mode === 'long-running' && this.memory) return this.memory;
    const text = this.sim.readText(this.document);
    if (text === undefined) return null;
    const parsed = Skillbook.parse(text);
    // caught mid-write, or torn by a crash: ACE would fail to load and try later
    return parsed.ok ? { book: parsed.book, digest: sha256(text) } : null;
  }

  private save(epoch: number, plan: ExternalSavePlan): void {
    const loaded = this.load();
    if (!loaded) return;
    const operations = plan.ops.map((op) => this.operation(loaded.book, op));
    // ACE stamps with microseconds: its changes never share a stamp with Cohort's (whole ms here) or each other
    const r = loaded.book.applyBatch({ operations }, { clock: { now: () => this.clock.now() + (this.ticks += 1) / 1000 } });
    if (!r.ok) return;
    const text = r.book.toJSON();
    const digest = sha256(text);
    this.sim.write(this.document, text);
    this.saves.push({ epoch, digest, saved: r.book, base: loaded.book, baseDigest: loaded.digest, ops: r.applied });
    this.note({ type: 'sim.external', mode: this.plan.mode, ops: r.applied.map((o) => `${o.type} ${o.skill_id}`) });
    this.memory = { book: r.book, digest };
  }

  private operation(book: Skillbook, op: ExternalOpPlan): Record<string, unknown> {
    this.count += 1;
    if (op.type === 'ADD')
      return { type: 'ADD', section: op.section, issue: `ace ${this.count}`, insight: `learned by ACE (${this.count})` };
    const active = [...book.skills()].filter((s) => s.active);
    const target = active[Math.floor(op.pick * active.length)];
    if (!target) return { type: 'TAG', section: 'context', skill_id: 'none', metadata: { delta: 1 } };
    if (op.type === 'TAG') return { type: 'TAG', section: target.section, skill_id: target.id, metadata: { delta: 1 } };
    if (op.type === 'REMOVE') return { type: 'REMOVE', section: target.section, skill_id: target.id };
    return { type: 'UPDATE', section: target.section, skill_id: target.id, insight: `changed by ACE (${this.count})` };
  }
}
