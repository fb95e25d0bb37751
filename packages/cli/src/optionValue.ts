import { InvalidArgumentError } from 'commander';
import { z } from 'zod';

/**
 * A commander argument parser that checks one option's value with a zod schema at the
 * boundary. On a bad value commander prints the user's own flag and value
 * (`option '--seed <n>' argument '-3' is invalid. …`) followed by the schema's message, and
 * the command exits 2.
 *
 * @example
 * program.option('--limit <n>', 'only the last N entries', optionValue(wholeNumber(1)));
 */
export function optionValue<T>(schema: z.ZodType<T, string>): (value: string) => T {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new InvalidArgumentError(parsed.error.issues.map((i) => i.message).join('; '));
  };
}

/** A whole number from `min` to `max`, written in decimal digits. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^[+-]?\d+$/, `expected a whole number, at least ${min}`)
    .transform(Number)
    .pipe(z.number().min(min, `expected a whole number, at least ${min}`).max(max, `expected at most ${max}`));
}
