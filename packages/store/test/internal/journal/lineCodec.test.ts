import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../../src/internal/journal/JournalLine.ts';
import { checkLine, checksummed, decodeLine, encodeLine, lineBody } from '../../../src/internal/journal/lineCodec.ts';

const lease: JournalLine = { v: 2, t: 'lease', rev: 3, prev: 'abc', writer: 'w-1', from: 10, to: 20, at: 5 };
const text = encodeLine(lease).slice(0, -1);

describe('lineCodec', () => {
  it('encodeLine - a line reads back as itself, its body as the chain hashes it', () => {
    const decoded = decodeLine(text);
    expect(decoded).toEqual({ ok: true, line: lease, body: lineBody(lease) });
    expect(checkLine(text)).toEqual({ ok: true, header: false, firstFormat: false });
  });

  it('checksummed - a line without its checksum tail, or with a wrong one, is refused the same way by every reader', () => {
    const cases = [`${text.slice(0, text.lastIndexOf(',"sum"'))}}`, text.slice(0, -1), `${text.slice(0, -3)}0"}`];
    const faults = cases.map((c) => {
      const r = checksummed(c);
      return r.ok ? 'ok' : r.fault;
    });
    expect(faults).toEqual(['invalid_line', 'invalid_line', 'bad_checksum']);
  });

  it('decodeLine - checking a line and decoding it agree on every damaged line (fast-check)', () => {
    fc.assert(
      fc.property(fc.nat({ max: text.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }), fc.boolean(), (at, c, cut) => {
        const damaged = cut ? text.slice(0, at) : `${text.slice(0, at)}${c}${text.slice(at + 1)}`;
        const sum = checksummed(damaged);
        const checked = checkLine(damaged);
        const decoded = decodeLine(damaged);
        expect(checked.ok).toBe(sum.ok);
        if (!sum.ok) {
          expect(checked).toEqual(sum);
          expect(decoded).toEqual(sum);
        } else if (decoded.ok) expect(decoded.body).toBe(sum.body);
      }),
      { numRuns: 500 },
    );
  });
});
