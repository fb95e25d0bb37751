/**
 * The rules a tool's input JSON Schema must follow for OpenAI's strict function calling and
 * Anthropic's tool use, checked by hand (no validator library): what the providers document
 * and reject. Returns one message per violation, with its JSON path; none means accepted.
 */
type Node = Record<string, unknown>;

/** Keywords at least one of the two providers refuses in a strict tool schema. */
const REFUSED = [
  '$schema',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minProperties',
  'maxProperties',
  'default',
];

export function strictSchemaViolations(schema: unknown): string[] {
  const out: string[] = [];
  if (!isNode(schema)) return ['$: not an object'];
  if (schema['type'] !== 'object') out.push('$: the root is not `type: "object"`');
  if ('anyOf' in schema) out.push('$: a top-level anyOf');
  walk(schema, '$', out);
  return out;
}

/** True when the schema node accepts `null` (a nullable type, a null branch, or null in its enum). */
export function acceptsNull(node: unknown): boolean {
  if (!isNode(node)) return false;
  const type = node['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(node['anyOf']) && node['anyOf'].some(acceptsNull)) return true;
  return false;
}

function walk(node: Node, path: string, out: string[]): void {
  for (const key of REFUSED) if (key in node) out.push(`${path}: has \`${key}\``);
  if (Array.isArray(node['type'])) out.push(`${path}: a type list (Anthropic documents anyOf for unions)`);
  const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
  if (node['type'] === undefined && !Array.isArray(node['anyOf']) && node['enum'] === undefined && node['const'] === undefined) {
    out.push(`${path}: no type`);
  }
  if (types.includes('object')) checkObject(node, path, out);
  if (types.includes('array') && !isNode(node['items'])) out.push(`${path}: an array without items`);
  if (isNode(node['items'])) walk(node['items'], `${path}[]`, out);
  if (Array.isArray(node['anyOf']))
    node['anyOf'].forEach((branch, i) =>
      isNode(branch) ? walk(branch, `${path}.anyOf[${i}]`, out) : out.push(`${path}.anyOf[${i}]: not a schema`),
    );
}

function checkObject(node: Node, path: string, out: string[]): void {
  if (node['additionalProperties'] !== false) out.push(`${path}: additionalProperties is not false`);
  const properties = node['properties'];
  if (!isNode(properties)) return void out.push(`${path}: an object without properties`);
  const required = Array.isArray(node['required']) ? node['required'] : [];
  for (const key of Object.keys(properties)) if (!required.includes(key)) out.push(`${path}.${key}: not in required`);
  for (const key of required) if (!(key in properties)) out.push(`${path}: requires unknown ${String(key)}`);
  for (const [key, value] of Object.entries(properties)) {
    if (isNode(value)) walk(value, `${path}.${key}`, out);
    else out.push(`${path}.${key}: not a schema`);
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
