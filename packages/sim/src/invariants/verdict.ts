import type { EpochRecord } from '../EpochRecord.ts';
import type { Reference } from '../referenceModel.ts';
import type { RunObservations } from '../runScenario.ts';
import { INVARIANTS } from '../SimReport.ts';
import type { InvariantId, InvariantResult } from '../SimReport.ts';

/** What every invariant is checked against: the observations, and each epoch's reference model. */
export interface CheckInput {
  readonly observations: RunObservations;
  /** One per epoch, in the same order as `observations.epochs`. */
  readonly references: readonly Reference[];
  /** Unhandled rejections and uncaught exceptions seen while the run was on. */
  readonly unhandled: readonly string[];
}

/** Violations shown per invariant; the rest are counted. */
const SHOWN = 8;

/**
 * An invariant's verdict: failed with the violations when there are any (the first few, then
 * a count), passed with a one-line account of what was checked otherwise.
 *
 * @example
 * verdict(5, [], 'epoch 1: 12 allocated ids, all distinct');
 */
export function verdict(id: InvariantId, violations: readonly string[], checked: string): InvariantResult {
  if (violations.length === 0) return { id, name: INVARIANTS[id], ok: true, detail: [checked] };
  const shown = violations.slice(0, SHOWN);
  const more = violations.length - shown.length;
  return { id, name: INVARIANTS[id], ok: false, detail: more > 0 ? [...shown, `… and ${more} more`] : shown };
}

/** Each epoch with its reference model. */
export function epochsOf(input: CheckInput): { readonly record: EpochRecord; readonly ref: Reference | undefined }[] {
  return input.observations.epochs.map((record, i) => ({ record, ref: input.references[i] }));
}

/** Prefixes an epoch (or the writer) to a message when the run had more than one runtime. */
export function inEpoch(input: CheckInput, record: EpochRecord, message: string): string {
  if (record.writer !== null) return `writer ${record.writer}: ${message}`;
  return input.observations.epochs.length > 1 ? `epoch ${record.epoch}: ${message}` : message;
}

/** A stable fingerprint of an op, for comparing ops across books and audits. */
export function opKey(op: unknown): string {
  return JSON.stringify(op);
}
