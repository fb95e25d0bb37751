import { z } from 'zod';

type Node = Readonly<Record<string, unknown>>;

/**
 * The keywords a tool's published schema keeps. Providers' strict modes reject many
 * validation keywords (OpenAI: `minLength`, `maxLength`, …; Anthropic: string and number
 * bounds); zod still checks every one of them at run time, so the schema only describes.
 */
const KEPT = ['type', 'description', 'enum', 'const', 'properties', 'required', 'items', 'anyOf', 'additionalProperties'] as const;

/**
 * A zod object schema as a tool input JSON Schema that OpenAI's strict function calling and
 * Anthropic's tool use both accept: a root `type: "object"` with no `anyOf` and no `$schema`;
 * in every object, each property listed in `required`, optional ones nullable (a strict model
 * sends `null` for "absent"; the tools read it so) and `additionalProperties: false`; no
 * validation keywords (zod validates at run time).
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
 * Reads a tool call's arguments as Cohort's tools do: `null` for any object field means absent
 * (a strict-mode model sends every property), then the schema decides; a refusal is an
 * `{ error }` to hand back to the model, never an exception.
 *
 * @example
 * parseToolArguments(z.object({ q: z.string(), limit: z.number().optional() }), { q: 'x', limit: null });
 * // { ok: true, data: { q: 'x' } }
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, raw: unknown): { readonly ok: true; readonly data: z.infer<S> } | { readonly ok: false; readonly error: string } {
  const parsed = schema.safeParse(withoutNulls(raw));
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: `invalid arguments: ${z.prettifyError(parsed.error)}` };
}

/** `raw` with every `null` object field removed, at any depth (no tool argument gives `null` a meaning). */
function withoutNulls(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map(withoutNulls);
  if (raw === null || typeof raw !== 'object') return raw;
  const proto: unknown = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) out[key] = withoutNulls(value);
  return out;
}

function strict(node: Node): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
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
