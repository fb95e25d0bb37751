import { z } from 'zod';

/**
 * A session's id: its runtime's id and the runtime's counter, `<runtimeId>.<n>` (`k3v9x2m8q4.17`).
 * Unique across processes and time, so a persisted log names one session unambiguously, and
 * short enough to read in a log line. Branded, so that a session id is never passed where a
 * skill id is expected; any string is accepted where a caller looks one up.
 */
export const SessionIdSchema = z.string().brand<'SessionId'>();
/** See {@link SessionIdSchema}. */
export type SessionId = z.infer<typeof SessionIdSchema>;

/**
 * A runtime's id (`createRuntime({ runtimeId })`): 1 to 64 letters, digits, `_` or `-` — no `.`
 * (it separates the counter) and no `/` (it separates a path in `cohort book log`).
 */
export const RuntimeIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a runtime id is 1 to 64 letters, digits, _ or -');

/** Letters of a random runtime id: lowercase, without the look-alikes `i`, `l`, `o` and `u`. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A fresh random runtime id: 10 characters, 50 bits from the platform's cryptographic random
 * source (`crypto.getRandomValues`), so two runtimes of one store are told apart with
 * overwhelming odds however many start over the store's life. Pass `random` (returning numbers
 * in [0, 1)) for a deterministic one.
 *
 * @example
 * newRuntimeId();            // 'k3v9x2m8q4'
 * newRuntimeId(() => 0);     // '0000000000'
 */
export function newRuntimeId(random?: () => number): string {
  const bytes = new Uint8Array(10);
  if (random) for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  else globalThis.crypto.getRandomValues(bytes);
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}

/**
 * The id of runtime `runtimeId`'s `n`-th session.
 *
 * @example
 * formatSessionId('k3v9x2m8q4', 3); // 'k3v9x2m8q4.3'
 */
export function formatSessionId(runtimeId: string, n: number): SessionId {
  return `${runtimeId}.${n}` as SessionId;
}
