import { takenInDuring } from './external/externalChanges.ts';
import { buildReferenceTakingIn } from './referenceModel.ts';
import type { Reference } from './referenceModel.ts';
import type { RunObservations } from './runScenario.ts';
import { buildWritersReference } from './writersReference.ts';

/**
 * The reference models of a run: each epoch's own (with what the store took in from another
 * program meanwhile, if one saved the document); for the many writers, one serial history of
 * them all, in the store's revision order.
 *
 * @example
 * const references = buildReferences(observations);
 */
export function buildReferences(observations: RunObservations): Reference[] {
  const w = observations.writers;
  const phase = w ? buildWritersReference(observations.epochs.slice(w.first, w.first + w.count), w.initial) : [];
  return observations.epochs.map((record, i) => {
    const mine = w !== null && i >= w.first && i < w.first + w.count ? phase[i - w.first] : undefined;
    return mine ?? buildReferenceTakingIn(record, takenInDuring(observations, i));
  });
}
