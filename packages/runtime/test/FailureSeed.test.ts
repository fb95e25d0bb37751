import { describe, expect, it } from 'vitest';
import { bodyThrew, defect, failureSeed } from '../src/FailureSeed.ts';

describe('FailureSeed - one shape for every failure', () => {
  it('failureSeed - each kind has its usual category, which a seed may override', () => {
    expect(failureSeed('crashed', 'x').category).toBe('error');
    expect(failureSeed('timeout', 'x').category).toBe('interruption');
    expect(failureSeed('cancelled', 'x').category).toBe('interruption');
    expect(failureSeed('budget_exhausted', 'x').category).toBe('error');
    expect(failureSeed('budget_exhausted', 'x', { category: 'interruption' }).category).toBe('interruption');
  });

  it('bodyThrew - keeps whatever was thrown, undefined included, as the error', () => {
    expect(bodyThrew(new RangeError('r'))).toMatchObject({
      kind: 'crashed',
      category: 'error',
      message: 'r',
      error: { name: 'RangeError' },
    });
    expect(bodyThrew(undefined).error).toEqual({ name: 'NonError', message: 'undefined' });
  });

  it('defect - is a crash in the defect category, with its cause when there is one', () => {
    expect(defect('runtime defect while settling')).toEqual({
      kind: 'crashed',
      category: 'defect',
      message: 'runtime defect while settling',
    });
    expect(defect('store failed', new Error('EIO')).error?.message).toBe('EIO');
  });
});
