/**
 * Frozen `Map`s that refuse `set`, `delete` and `clear` (and `add`), as immer's frozen Maps do,
 * through one shared prototype instead of immer's four own properties on every Map: a commit
 * freezes a bucket Map per touched trie bucket, a load one per bucket (bench rows 5 and 6i).
 */
import { die } from '../errors.ts';

function refuseMutation(): never {
  die('FROZEN_MAP_WRITE');
}

const refusal = { value: refuseMutation, writable: false, enumerable: false, configurable: false };

/** A `Map`'s prototype with the mutating methods refused; reads fall through to `Map.prototype`. */
const FROZEN_MAP_PROTOTYPE: object = Object.freeze(
  Object.create(Map.prototype, { set: refusal, delete: refusal, clear: refusal, add: refusal }),
);

/** Freezes `map`: still a `Map` to every reader (`instanceof`, `get`, iteration), refusing writes. */
export function freezeMap<K, V>(map: Map<K, V>): ReadonlyMap<K, V> {
  if (Object.isFrozen(map)) return map;
  Object.setPrototypeOf(map, FROZEN_MAP_PROTOTYPE);
  return Object.freeze(map);
}
