import type { Conflict } from '@cohort/skillbook';
import type { ErrorInfo } from './ErrorInfo.ts';
import { describeThrown, toErrorInfo } from './ErrorInfo.ts';
import type { FailureCategory, FailureKind } from './SessionFailure.ts';

/**
 * Why a session failed, as the session machine keeps it in its context: a
 * {@link SessionFailure} without the accounting the runtime adds when the session settles
 * (ids, discarded work, attempt, time). Every failure starts as one — a refused spawn, a
 * rejected merge, a crash, an interruption, a defect — made by the functions below.
 */
export interface FailureSeed {
  readonly kind: FailureKind;
  readonly category: FailureCategory;
  readonly message: string;
  readonly error?: ErrorInfo;
  readonly conflicts?: readonly Conflict[];
}

/** Each kind's category unless a seed says otherwise (a wall-clock budget interrupts; a store's throw is a defect). */
const CATEGORY: Readonly<Record<FailureKind, FailureCategory>> = {
  crashed: 'error',
  aborted: 'interruption',
  timeout: 'interruption',
  cancelled: 'interruption',
  budget_exhausted: 'error',
  conflict: 'error',
  invalid_commit: 'error',
  limit_exceeded: 'error',
  tool_refused: 'error',
};

/** What a seed may carry beyond its kind and message. */
export interface SeedDetails {
  /** Anything thrown: kept as an {@link ErrorInfo} with its cause chain. */
  readonly error?: unknown;
  readonly conflicts?: readonly Conflict[];
  readonly category?: FailureCategory;
}

/**
 * A failure seed of `kind`, in the kind's usual category unless `details` names another.
 *
 * @example
 * failureSeed('timeout', 'timed out after 50 ms').category; // 'interruption'
 */
export function failureSeed(kind: FailureKind, message: string, details: SeedDetails = {}): FailureSeed {
  const { error, conflicts, category = CATEGORY[kind] } = details;
  return {
    kind,
    category,
    message,
    ...(error !== undefined ? { error: toErrorInfo(error) } : {}),
    ...(conflicts ? { conflicts } : {}),
  };
}

/**
 * The seed of a body that threw (or rejected with) `thrown`: kind `crashed`, category `error`.
 *
 * @example
 * bodyThrew(new Error('boom')).message; // 'boom'
 */
export function bodyThrew(thrown: unknown): FailureSeed {
  // whatever was thrown, `undefined` included, is kept as the error
  return { ...failureSeed('crashed', describeThrown(thrown)), error: toErrorInfo(thrown) };
}

/**
 * The seed of a defect in Cohort or its store: kind `crashed`, category `defect`.
 *
 * @example
 * defect('runtime defect while committing').category; // 'defect'
 */
export function defect(message: string, thrown?: unknown): FailureSeed {
  return failureSeed('crashed', message, { category: 'defect', ...(thrown !== undefined ? { error: thrown } : {}) });
}
