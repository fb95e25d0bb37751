import { z } from 'zod';
import { BudgetSpecSchema } from './Budget.ts';
import { FailureKindSchema } from './SessionFailure.ts';

/** Validates the options of `s.spawn` and `rt.run` at the boundary. */
export const SpawnOptionsSchema = z.object({
  input: z.unknown().optional(),
  timeoutMs: z.number().nonnegative().finite().optional(),
  budget: BudgetSpecSchema.optional(),
  name: z.string().optional(),
  onRefusedCall: z.enum(['continue', 'fail']).optional(),
  retry: z.object({ attempts: z.number().int().nonnegative(), on: z.array(FailureKindSchema).optional() }).optional(),
});
