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

/** How often a statement or a store's answer is tried in all while the database is out of reach: about 13 s, a server's restart. */
export const RECONNECT_TRIES = 8;

/**
 * Runs `attempt` again after a connection error, up to `tries` times in all, waiting 100 ms,
 * 200 ms, 400 ms, … in between; any other error, or the last connection error, is thrown.
 * Only for statements that are safe to repeat (a read; a write of a value that stands once).
 */
export async function retryOnConnectionError<T>(attempt: () => Promise<T>, tries = RECONNECT_TRIES, sleep = defaultSleep): Promise<T> {
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

/** A store's answer: its value, or a structured refusal (`io`: its database could not be reached). */
type StoreAnswer = { readonly ok: true } | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/**
 * Asks again, waiting 100 ms, 200 ms, 400 ms, … in between, while `again` says of the answer
 * that the database was out of reach — up to `tries` times in all; the last answer.
 */
export async function askAgainWhile<T>(
  ask: () => Promise<T>,
  again: (answer: T) => boolean,
  tries = RECONNECT_TRIES,
  sleep = defaultSleep,
): Promise<T> {
  for (let i = 1; ; i++) {
    const answer = await ask();
    if (!again(answer) || i >= tries) return answer;
    await sleep(100 * 2 ** (i - 1));
  }
}

/**
 * Asks the store again while it answers `io` (a terminated connection, a server restarting),
 * as {@link askAgainWhile} does. Only for what is safe to ask twice: a read, a lease (an unused
 * one is a gap in the ids, never a reuse).
 */
export function retryStoreIo<T extends StoreAnswer>(ask: () => Promise<T>, tries = RECONNECT_TRIES, sleep = defaultSleep): Promise<T> {
  return askAgainWhile(ask, (answer) => !answer.ok && answer.error.code === 'io', tries, sleep);
}
