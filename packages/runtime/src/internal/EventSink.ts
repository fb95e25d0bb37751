import type { RuntimeEvent } from '../RuntimeEvent.ts';

/**
 * Where the runtime's events go (`events$`). `listening` is false while nobody subscribes:
 * the runtime then builds no event at all. Why: a session makes three or four events (each
 * with a copy of its path and a clock reading), and in a fan-out of thousands of sessions
 * nobody watching is the common case — building them for nobody cost about 5 % of a session
 * and a share of the garbage collector's work (bench row 2).
 */
export interface EventSink {
  readonly listening: boolean;
  emit(event: RuntimeEvent): void;
}
