import { randomUUID } from 'node:crypto';
import type { Skillbook } from '@cohort/skillbook';
import type { StoreClock } from '../StoreClock.ts';
import { systemStoreClock } from '../StoreClock.ts';

/** The options every durable store takes, whatever it keeps its book in. */
export interface SharedStoreOptions {
  readonly writerId?: string | undefined;
  readonly initialBook?: Skillbook | undefined;
  readonly create?: boolean | undefined;
  readonly clock?: StoreClock | undefined;
}

/** {@link SharedStoreOptions} with their defaults filled in. */
export interface ResolvedSharedOptions {
  readonly clock: StoreClock;
  readonly writerId: string;
  readonly initialBook: Skillbook | null;
  readonly create: boolean;
}

/**
 * The shared options with the defaults every store gives them: the system clock, a random
 * writer id per open (`<writerPrefix>-` and 8 hex digits, so a store's writers are told apart
 * by kind), no initial book (the store starts empty) and `create`.
 *
 * @example
 * ```ts
 * import { resolveSharedOptions } from '@cohort/store/adapter';
 *
 * const { writerId, create } = resolveSharedOptions({ create: false }, 'db');
 * // writerId: 'db-1f0c9a2e' (random), create: false
 * ```
 */
export function resolveSharedOptions(options: SharedStoreOptions, writerPrefix: string): ResolvedSharedOptions {
  return {
    clock: options.clock ?? systemStoreClock,
    writerId: options.writerId ?? `${writerPrefix}-${randomUUID().slice(0, 8)}`,
    initialBook: options.initialBook ?? null,
    create: options.create ?? true,
  };
}
