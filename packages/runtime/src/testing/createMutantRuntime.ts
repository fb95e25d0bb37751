import type { Runtime, RuntimeOptions } from '../createRuntime.ts';
import { openRuntime } from '../internal/CohortRuntime.ts';
import { mutantSeams } from './mutations.ts';
import type { RuntimeMutation } from './mutations.ts';

/**
 * A runtime with one deliberately broken seam, for mutation tests of the simulation's
 * checker: the checker must catch each {@link RuntimeMutation}. Never use one outside a test.
 *
 * @example
 * const rt = createMutantRuntime('keep-failed-writes', { clock });
 */
export function createMutantRuntime(mutation: RuntimeMutation, options: RuntimeOptions = {}): Runtime {
  return openRuntime(options, mutantSeams(mutation));
}
