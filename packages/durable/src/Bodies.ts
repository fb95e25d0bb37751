import type { SessionBody } from '@cohort/runtime';
import { DurableError } from './DurableError.ts';

/** A body a durable worker can run, under the name every worker registers it by. */
export type RegisteredBody = SessionBody<never, unknown>;

/** The bodies of a durable worker by name (the same on every worker), and their names by body. */
export class Bodies {
  private readonly byName: ReadonlyMap<string, RegisteredBody>;
  private readonly names = new Map<unknown, string>();

  constructor(bodies: Readonly<Record<string, RegisteredBody>>) {
    this.byName = new Map(Object.entries(bodies));
    for (const [name, body] of this.byName) this.names.set(body, name);
  }

  /** The body registered as `name`; throws `DURABLE_UNREGISTERED_BODY` when there is none. */
  get(name: string): RegisteredBody {
    const body = this.byName.get(name);
    if (!body) {
      throw new DurableError('DURABLE_UNREGISTERED_BODY', `no body is registered as ${JSON.stringify(name)} (registered: ${this.list()})`);
    }
    return body;
  }

  /** The name `body` is registered under, or undefined for a body that is not registered. */
  nameOf(body: unknown): string | undefined {
    return this.names.get(body);
  }

  /** The name of `body` given by name or by itself; throws `DURABLE_UNREGISTERED_BODY` for one that is not registered. */
  resolve(body: string | RegisteredBody): string {
    const name = typeof body === 'string' ? body : this.nameOf(body);
    if (name === undefined || !this.byName.has(name)) {
      const shown = typeof body === 'string' ? JSON.stringify(body) : 'the body given';
      const message = `${shown} is not a registered body (registered: ${this.list()}); register it on every worker (openDurable's bodies)`;
      throw new DurableError('DURABLE_UNREGISTERED_BODY', message);
    }
    return name;
  }

  private list(): string {
    return this.byName.size === 0 ? 'none' : [...this.byName.keys()].join(', ');
  }
}
