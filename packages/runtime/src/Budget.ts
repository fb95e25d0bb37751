import { z } from 'zod';

/** A session's budget: tokens and requests it may charge, and wall-clock milliseconds. */
export const BudgetSpecSchema = z.object({
  tokens: z.number().nonnegative().optional(),
  requests: z.number().nonnegative().optional(),
  ms: z.number().nonnegative().optional(),
});
/** See {@link BudgetSpecSchema}. */
export type BudgetSpec = z.infer<typeof BudgetSpecSchema>;

/** What a session spends; `s.charge` takes one. */
export interface Usage {
  readonly tokens?: number;
  readonly requests?: number;
}

type Meter = 'tokens' | 'requests';
const METERS: readonly Meter[] = ['tokens', 'requests'];

/** Why a charge or a carve was refused. */
export interface BudgetRefusal {
  readonly meter: Meter;
  readonly asked: number;
  readonly remaining: number;
}

/**
 * One session's account. A child given its own budget *carves* it out of its parent's
 * remaining budget at spawn (reserved, so siblings cannot spend it) and charges back what it
 * actually used when it settles, whatever its outcome. A child without a budget of its own
 * spends straight from its parent's account.
 */
export class BudgetAccount {
  private readonly used = { tokens: 0, requests: 0 };
  private readonly reserved = { tokens: 0, requests: 0 };

  private constructor(
    private readonly parent: BudgetAccount | null,
    private readonly limit: Readonly<Partial<Record<Meter, number>>>,
    /** True when this account reserved its limit in its parent. */
    private readonly carved: boolean,
  ) {}

  /** The runtime's top account. */
  static root(spec: BudgetSpec | undefined): BudgetAccount {
    return new BudgetAccount(null, pickMeters(spec), false);
  }

  /**
   * Opens a child account. With a budget of its own, the child's limits are reserved from
   * this account (refused when it has less left); without, the child spends from this one.
   */
  open(spec: BudgetSpec | undefined): BudgetAccount | BudgetRefusal {
    if (spec === undefined) return new BudgetAccount(this, NO_LIMIT, false);
    const limit = pickMeters(spec);
    if (Object.keys(limit).length === 0) return new BudgetAccount(this, NO_LIMIT, false);
    const refusal = this.check(limit);
    if (refusal) return refusal;
    this.walk((acc) => addTo(acc.reserved, limit));
    return new BudgetAccount(this, limit, true);
  }

  /** Spends `usage`; refused (and nothing spent) when any account up the chain would go over. */
  charge(usage: Usage): BudgetRefusal | null {
    const amount = pickMeters(usage);
    const refusal = this.check(amount);
    if (refusal) return refusal;
    this.walk((acc) => addTo(acc.used, amount));
    return null;
  }

  /** Settles a carved account: releases its reservation and charges back what it used. */
  close(): void {
    if (!this.carved || !this.parent) return;
    const limit = this.limit;
    const used = { ...this.used };
    this.parent.walk((acc) => {
      for (const m of METERS) acc.reserved[m] -= limit[m] ?? 0;
      addTo(acc.used, used);
    });
  }

  /** What is left under the tightest limit up the chain (Infinity when unlimited). */
  remaining(): Record<Meter, number> {
    const out = { tokens: Infinity, requests: Infinity };
    this.walk((acc) => {
      for (const m of METERS) out[m] = Math.min(out[m], acc.left(m));
    });
    return out;
  }

  /** What this account has spent, its descendants' settled usage included. */
  spent(): Record<Meter, number> {
    return { ...this.used };
  }

  private left(m: Meter): number {
    const lim = this.limit[m];
    return lim === undefined ? Infinity : lim - this.used[m] - this.reserved[m];
  }

  private check(amount: Partial<Record<Meter, number>>): BudgetRefusal | null {
    let refusal: BudgetRefusal | null = null;
    this.walk((acc) => {
      if (refusal) return;
      for (const m of METERS) {
        const asked = amount[m] ?? 0;
        if (asked > 0 && asked > acc.left(m)) refusal = { meter: m, asked, remaining: acc.left(m) };
      }
    });
    return refusal;
  }

  /** Visits this account and its ancestors up to (and including) the first carved one. */
  private walk(visit: (acc: BudgetAccount) => void): void {
    for (let acc: BudgetAccount | null = this; acc; acc = acc.carved ? null : acc.parent) visit(acc);
  }
}

/** The limit of an account with none of its own (it draws on its parent's). */
const NO_LIMIT: Readonly<Partial<Record<Meter, number>>> = Object.freeze({});

function pickMeters(spec: Usage | BudgetSpec | undefined): Partial<Record<Meter, number>> {
  const out: Partial<Record<Meter, number>> = {};
  for (const m of METERS) {
    const v = spec?.[m];
    if (typeof v === 'number' && Number.isFinite(v)) out[m] = v;
  }
  return out;
}

function addTo(target: Record<Meter, number>, amount: Partial<Record<Meter, number>>): void {
  for (const m of METERS) target[m] += amount[m] ?? 0;
}
