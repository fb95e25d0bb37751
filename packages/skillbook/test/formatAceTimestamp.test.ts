import { describe, expect, it } from 'vitest';
import { formatAceTimestamp, systemClock } from '../src/index.ts';

describe('formatAceTimestamp', () => {
  it('formats a clock reading as ACE writes datetime.now(timezone.utc).isoformat()', () => {
    expect(formatAceTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6) + 0.789)).toBe('2026-01-02T03:04:05.006789+00:00');
    expect(formatAceTimestamp(0)).toBe('1970-01-01T00:00:00.000000+00:00');
  });

  it('rounds to the microsecond, carrying into the next millisecond', () => {
    expect(formatAceTimestamp(Date.UTC(2026, 11, 31, 23, 59, 59, 999) + 0.9999)).toBe('2027-01-01T00:00:00.000000+00:00');
  });

  it('pads years below 1000 and refuses readings outside years 1–9999', () => {
    expect(formatAceTimestamp(Date.UTC(999, 0, 1))).toBe('0999-01-01T00:00:00.000000+00:00');
    expect(() => formatAceTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => formatAceTimestamp(Date.UTC(10000, 0, 1))).toThrow(RangeError);
  });

  it('the system clock tells the real time', () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    expect(formatAceTimestamp(systemClock.now())).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  });
});
