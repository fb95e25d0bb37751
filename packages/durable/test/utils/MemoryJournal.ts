import type { Records } from '../../src/internal/Records.ts';

/** The part of `Journal` the units use, in memory: for tests of what is recorded without a database. */
export class MemoryJournal implements Records {
  private readonly units = new Map<string, Map<string, unknown>>();

  private unit(unit: string): Map<string, unknown> {
    let rows = this.units.get(unit);
    if (!rows) this.units.set(unit, (rows = new Map()));
    return rows;
  }

  get(unit: string, key: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.unit(unit).get(key)));
  }

  record(unit: string, key: string, value: unknown): Promise<unknown> {
    const rows = this.unit(unit);
    if (!rows.has(key)) rows.set(key, structuredClone(value));
    return this.get(unit, key);
  }

  async recorded<T>(unit: string, key: string, make: () => Promise<T>): Promise<T> {
    const found = await this.get(unit, key);
    if (found !== undefined) return found as T;
    return (await this.record(unit, key, await make())) as T;
  }

  list(unit: string, prefix: string): Promise<{ key: string; value: unknown }[]> {
    return Promise.resolve([...this.unit(unit)].filter(([key]) => key.startsWith(prefix)).map(([key, value]) => ({ key, value })));
  }

  /** Every row of `unit`, for assertions. */
  rows(unit: string): Record<string, unknown> {
    return Object.fromEntries(this.unit(unit));
  }
}
