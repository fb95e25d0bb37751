import type { Clock } from './types.ts';
import { die } from './errors.ts';

/**
 * The real clock (`Date.now()`), the default wherever a {@link Clock} is optional. Inject a
 * fixed or simulated clock instead in tests and simulations.
 *
 * @example
 * formatAceTimestamp(systemClock.now()); // '2026-…T…+00:00'
 */
export const systemClock: Clock = Object.freeze({ now: (): number => Date.now() });

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * Formats a clock reading (milliseconds since the epoch, fractions allowed) the way ACE writes
 * `created_at` / `updated_at`: `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`, in UTC, rounded to the
 * microsecond (always six digits). Throws a `RangeError` (`CLOCK_OUT_OF_RANGE`) outside years 1–9999 (a clock bug).
 *
 * @example
 * formatAceTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6) + 0.789); // '2026-01-02T03:04:05.006789+00:00'
 */
export function formatAceTimestamp(ms: number): string {
  // many ops share one clock reading (a batch, a burst of tool calls): format it once
  if (ms === last.ms) return last.text;
  const text = format(ms);
  last = { ms, text };
  return text;
}

let last = { ms: NaN, text: '' };

function format(ms: number): string {
  if (!Number.isFinite(ms)) die('CLOCK_NOT_A_READING', ms);
  let whole = Math.floor(ms);
  let micros = Math.round((ms - whole) * 1000);
  if (micros === 1000) {
    whole += 1;
    micros = 0;
  }
  const d = new Date(whole);
  const year = d.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) die('CLOCK_OUT_OF_RANGE', ms);
  const date = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  return `${date}T${time}.${pad(d.getUTCMilliseconds(), 3)}${pad(micros, 3)}+00:00`;
}
