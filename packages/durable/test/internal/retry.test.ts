import { describe, expect, it } from 'vitest';
import { isConnectionError, retryOnConnectionError } from '../../src/internal/retry.ts';

const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('retryOnConnectionError', () => {
  it('tries a statement again after a lost connection, waiting longer each time', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await retryOnConnectionError(
      async () => {
        if (++calls < 3) throw calls === 1 ? terminated : new Error('Connection terminated unexpectedly');
        return 'answered';
      },
      6,
      async (ms) => void waits.push(ms),
    );
    expect([value, calls, waits]).toEqual(['answered', 3, [100, 200]]);
  });

  it('throws an answer at once, and the last connection error after the last try', async () => {
    let calls = 0;
    const refused = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(
      retryOnConnectionError(
        async () => (calls++, Promise.reject(refused)),
        6,
        async () => undefined,
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
    await expect(
      retryOnConnectionError(
        async () => (calls++, Promise.reject(terminated)),
        3,
        async () => undefined,
      ),
    ).rejects.toBe(terminated);
    expect(calls).toBe(4);
  });

  it('knows connection errors by code and by message', () => {
    expect(isConnectionError(terminated)).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    // a server busy or restarting refuses new connections for a while
    expect(isConnectionError(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isConnectionError('nope')).toBe(false);
  });

  it('takes a server at its connection limit for a refused connection: the statement never ran', () => {
    const full = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    expect(isConnectionError(full)).toBe(true);
  });
});
