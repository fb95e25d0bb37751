import { InvalidArgumentError, Option } from 'commander';
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

/**
 * An option whose value is a whole number from `min` to `max` ({@link wholeNumber}, checked
 * as {@link optionValue} checks); chain `.default(…)` or `.conflicts(…)` as on any option.
 *
 * @example
 * program.addOption(wholeNumberOption('--port <n>', 'the port on 127.0.0.1 (0: any free port)', 0, 65_535).default(0));
 */
export function wholeNumberOption(flags: string, description: string, min: number, max?: number): Option {
  return new Option(flags, description).argParser(optionValue(wholeNumber(min, max)));
}
