import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIdAllocator, formatSkillId, idSuffix } from '../src/index.ts';

describe('createIdAllocator', () => {
  it('allocates <section>-<5 digits> from one counter, incremented before use', () => {
    const ids = createIdAllocator(0);
    expect([ids.allocate('context'), ids.allocate('harness'), ids.allocate('context')]).toEqual([
      'context-00001',
      'harness-00002',
      'context-00003',
    ]);
    expect(ids.next).toBe(3);
  });

  it('observe raises the counter past an id’s numeric suffix, never lowers it', () => {
    const ids = createIdAllocator(10);
    ids.observe('context-00042');
    ids.observe('harness-00007');
    ids.observe('custom-beta');
    ids.observe('7');
    expect(ids.next).toBe(42);
    expect(ids.allocate('harness')).toBe('harness-00043');
  });

  it('formats like Python {:05d}: wider numbers unpadded, negatives keep the sign inside the width', () => {
    expect(formatSkillId('context', 123456)).toBe('context-123456');
    expect(formatSkillId('context', -4)).toBe('context--0004');
  });

  it('reads the suffix of <letters or _>-<digits> ids only', () => {
    expect([idSuffix('context-00012'), idSuffix('x_y-3'), idSuffix('a-b-3'), idSuffix('12'), idSuffix('c-99999999999999999999')]).toEqual([
      12,
      3,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('formatSkillId - every id is the section, a dash and the number as Python formats {:05d}', () => {
    const python = (n: number): string => (n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(5, '0'));
    const n = fc.oneof(
      fc.nat({ max: 120_000 }),
      fc.integer({ min: -99_999, max: -1 }),
      fc.double({ noNaN: true }),
      fc.constantFrom(0, -0, 9, 99_999, 100_000, 2 ** 53),
    );
    fc.assert(
      fc.property(fc.constantFrom('context', 'harness'), n, (section, value) => {
        expect(formatSkillId(section, value)).toBe(`${section}-${python(value)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('idSuffix - the id just formatted reads back as reading it afresh does, whatever the number', () => {
    const n = fc.oneof(
      fc.nat({ max: 200_000 }),
      fc.integer({ min: -99_999, max: -1 }),
      fc.double(),
      fc.constantFrom(2 ** 53, 2 ** 53 - 1, 1e21, -0),
    );
    fc.assert(
      fc.property(fc.constantFrom('context', 'harness'), n, (section, value) => {
        const id = formatSkillId(section, value);
        const known = idSuffix(id);
        formatSkillId(section === 'context' ? 'harness' : 'context', 7);
        expect(known).toBe(idSuffix(id));
      }),
    );
  });

  it('refuses a counter that is not a safe integer (a programmer error)', () => {
    expect(() => createIdAllocator(1.5)).toThrow(RangeError);
  });
});
