import type { z } from 'zod';
import { fromUtf8 } from './digest.ts';

/**
 * A small file of the store's own (the lock, a recovery copy's metadata) read back: its bytes
 * as JSON that `schema` accepts, or `null` when they are not (not UTF-8, not JSON, or not of
 * the schema's shape) — a file cut short or written by something else is treated as absent.
 */
export function parseJsonBytes<T>(bytes: Uint8Array, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(fromUtf8(bytes) ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
