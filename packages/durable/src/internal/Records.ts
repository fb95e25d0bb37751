/**
 * What durable units record, by key, as the units see it: the system database's journal
 * (`Journal`) on a worker, or a journal of the caller's own where units run without DBOS (a
 * simulation). One value per (unit, key), written once: the first value recorded is the value.
 */
export interface Records {
  /** The value recorded under `key` for `unit`, or undefined. */
  get(unit: string, key: string): Promise<unknown>;
  /** Records `value` under `key` unless something is recorded there already; the value that stands. */
  record(unit: string, key: string, value: unknown): Promise<unknown>;
  /** The value recorded under `key`, or what `make` gives, recorded first. */
  recorded<T>(unit: string, key: string, make: () => Promise<T>): Promise<T>;
  /** Every key of `unit` that starts with `prefix`, with its value. */
  list(unit: string, prefix: string): Promise<{ key: string; value: unknown }[]>;
}
