import type { PeerSystem } from './PeerSystem.ts';
import { asyncFloor } from './systems/asyncFloor.ts';
import { cohortPeer } from './systems/cohortPeer.ts';
import { effectPeer } from './systems/effectPeer.ts';
import { langGraphPeer } from './systems/langGraphPeer.ts';

/**
 * Every system of the peer comparison, Cohort first, in table order. Only a peer's own process
 * loads them (`peerProcessMain.ts`): LangChain's AsyncLocalStorage, once in a process, slows
 * every `await` in it (the async floor took twice as long beside it).
 */
export const peerSystems: readonly PeerSystem[] = [cohortPeer, langGraphPeer, effectPeer, asyncFloor];

/** The system called `key`; throws for an unknown key (a harness bug). */
export function peerSystem(key: string): PeerSystem {
  const system = peerSystems.find((s) => s.key === key);
  if (!system) throw new Error(`no peer system '${key}' (known: ${peerSystems.map((s) => s.key).join(', ')})`);
  return system;
}
