import { z } from 'zod';
import { describeLoneSurrogate, loneSurrogate } from '@cohort/skillbook';

type Node = Readonly<Record<string, unknown>>;

/**
 * The keywords a tool's published schema keeps. Providers' strict modes reject many
 * validation keywords (OpenAI: `minLength`, `maxLength`, …; Anthropic: string, number and
 * array bounds); zod still checks every one of them at run time, so the schema only describes
 * — the bounds a model should know of (`maxLength`, `maxItems`) in the field's description.
 */
const KEPT = ['type', 'description', 'enum', 'const', 'properties', 'required', 'items', 'anyOf', 'additionalProperties'] as const;

/** How deep a tool's arguments may nest (the tools' own are 3 deep): deeper is refused, so is a cycle. */
const MAX_DEPTH = 32;

/**
 * A zod object schema as a tool input JSON Schema that OpenAI's strict function calling and
 * Anthropic's tool use both accept: a root `type: "object"` with no `anyOf` and no `$schema`;
 * in every object, each property listed in `required`, optional ones nullable (a strict model
 * sends `null` for "absent"; the tools read it so) and `additionalProperties: false`; no
 * validation keywords (zod validates at run time) — `maxLength` and `maxItems` are said in the
 * field's description instead (`… (at most 200 characters)`).
 *
 * @example
 * toStrictJsonSchema(z.object({ q: z.string(), limit: z.number().optional() }));
 * // { type: 'object', properties: { q: { type: 'string' }, limit: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
 * //   required: ['q', 'limit'], additionalProperties: false }
 */
export function toStrictJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  return strict(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node);
}

/**
 * A zod object schema as plain JSON Schema (draft 2020-12, no `$schema`), with every bound
 * zod checks (`maxLength`, `maxItems`, …): for callers that validate arguments themselves, or
 * tool APIs that take any schema. Strict modes refuse it; use {@link toStrictJsonSchema} there.
 *
 * @example
 * toJsonSchema(z.object({ q: z.string().max(100) }));
 * // { type: 'object', properties: { q: { type: 'string', maxLength: 100 } }, required: ['q'], additionalProperties: false }
 */
export function toJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node;
  return rest;
}

/**
 * Reads a tool call's arguments as Cohort's tools do: once, into plain data
 * ({@link plainArguments}: `null` for any object field means absent — a strict-mode model sends
 * every property), then the schema decides; a refusal is an `{ error }` to hand back to the
 * model, never an exception — not even for arguments whose reading throws.
 *
 * @example
 * parseToolArguments(z.object({ q: z.string(), limit: z.number().optional() }), { q: 'x', limit: null });
 * // { ok: true, data: { q: 'x' } }
 */
export function parseToolArguments<S extends z.ZodType>(
  schema: S,
  raw: unknown,
): { readonly ok: true; readonly data: z.infer<S> } | { readonly ok: false; readonly error: string } {
  const checked = checkedArguments(schema, raw);
  return typeof checked === 'string' ? { ok: false, error: checked } : { ok: true, data: checked.data };
}

/**
 * {@link parseToolArguments} without its result object: zod's success, or the refusal's
 * message. (The tools' own path: a tool call makes no wrapper it drops at once.)
 */
export function checkedArguments<S extends z.ZodType>(schema: S, raw: unknown): { readonly data: z.infer<S> } | string {
  let plain: unknown;
  try {
    plain = plainCopy(raw, 0);
  } catch (thrown) {
    return unreadable(thrown);
  }
  const lone = loneSurrogate(plain);
  if (lone) return `invalid arguments: ${describeLoneSurrogate(lone)}: send well-formed text`;
  const parsed = schema.safeParse(plain);
  return parsed.success ? parsed : `invalid arguments: ${z.prettifyError(parsed.error)}`;
}

function unreadable(thrown: unknown): string {
  return `invalid arguments: they cannot be read: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
}

/**
 * A caller's value read once into plain data — arrays, objects of their own enumerable string
 * keys (`__proto__` an ordinary key), and the primitives as they are — with every `null` object
 * field left out (no tool argument gives `null` a meaning). A getter or Proxy trap runs once,
 * here: one that throws, a cycle or nesting past 32 levels is an `{ error }`, so nothing that
 * reads the copy afterwards can be surprised.
 *
 * @example
 * plainArguments({ q: 'x', limit: null }); // { ok: true, value: { q: 'x' } }
 * plainArguments({ get q() { throw new Error('no'); } }); // { ok: false, error: 'invalid arguments: they cannot be read: no' }
 */
export function plainArguments(
  raw: unknown,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, value: plainCopy(raw, 0) };
  } catch (thrown) {
    return { ok: false, error: unreadable(thrown) };
  }
}

function plainCopy(raw: unknown, depth: number): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  if (depth >= MAX_DEPTH) throw new Error(`nested deeper than ${MAX_DEPTH} levels (or a cycle)`);
  if (Array.isArray(raw)) {
    const length = raw.length;
    const out: unknown[] = new Array<unknown>(length);
    for (let i = 0; i < length; i += 1) out[i] = plainCopy(raw[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    const value: unknown = (raw as Record<string, unknown>)[key];
    if (value === null) continue;
    // `__proto__` is defined, not assigned, so it stays a key and never becomes the prototype
    // (assigned, the others keep the copy a fast object: defining every key costs the tools ~10%)
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: plainCopy(value, depth + 1), enumerable: true, writable: true, configurable: true });
    else out[key] = plainCopy(value, depth + 1);
  }
  return out;
}

/** The bounds a strict schema cannot carry, said in words: `at most 200 characters`, `at most 64 items`. */
function bounds(node: Node): string | null {
  const said: string[] = [];
  if (typeof node['maxLength'] === 'number') said.push(`at most ${node['maxLength']} characters`);
  if (typeof node['maxItems'] === 'number') said.push(`at most ${node['maxItems']} items`);
  return said.length > 0 ? said.join(', ') : null;
}

function strict(node: Node): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
  const bound = bounds(node);
  if (bound) out['description'] = typeof node['description'] === 'string' ? `${node['description']} (${bound})` : bound;
  if (Array.isArray(node['anyOf'])) out['anyOf'] = (node['anyOf'] as Node[]).map(strict);
  if (isNode(node['items'])) out['items'] = strict(node['items']);
  if (node['type'] === 'object') Object.assign(out, strictObject(node));
  return out;
}

function strictObject(node: Node): Record<string, unknown> {
  const properties = isNode(node['properties']) ? node['properties'] : {};
  const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) {
    const property = strict(value as Node);
    out[key] = required.has(key) ? property : nullable(property);
  }
  return { properties: out, required: Object.keys(out), additionalProperties: false };
}

/**
 * `node` that also accepts `null`, as one more `anyOf` branch: both providers document `anyOf`
 * (a `type` list such as `["string", "null"]` is OpenAI's form, not one Anthropic lists).
 */
function nullable(node: Record<string, unknown>): Record<string, unknown> {
  const { description, anyOf, ...rest } = node;
  const branches = Array.isArray(anyOf) ? anyOf : [rest];
  return { ...(description !== undefined ? { description } : {}), anyOf: [...branches, { type: 'null' }] };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
