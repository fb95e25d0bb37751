/**
 * Whether `err` is a lost or refused connection (the server restarted, a connection was
 * terminated, the network dropped, the server was at its connection limit: `53300`) rather
 * than an answer: a statement that is safe to repeat may be tried again.
 */
export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || ['53300', '57P01', '57P02', '57P03', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE'].includes(code))
  ) {
    return true;
  }
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|ECONNRESET|ECONNREFUSED|terminating connection/i.test(message);
}

/**
 * Runs `attempt` again after a connection error, up to `tries` times in all, waiting 100 ms,
 * 200 ms, 400 ms, … in between; any other error, or the last connection error, is thrown.
 * Only for statements that are safe to repeat (a read; a write of a value that stands once).
 */
export async function retryOnConnectionError<T>(attempt: () => Promise<T>, tries = 6, sleep = defaultSleep): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries || !isConnectionError(err)) throw err;
      await sleep(100 * 2 ** (i - 1));
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
