import type { ToolDescriptions } from '../../shared'

/**
 * Compact tool declarations for models with small context windows (docs/tools.md, "Compact tool
 * descriptions"): each tool's one-sentence `shortDescription` and its JSON Schema without the words
 * meant for the model (descriptions, titles, examples) — a schema that accepts exactly the same
 * arguments as the full one (a generator test over every tool holds it to that).
 */

/** How tools are described to the model in one run: every word, or the short set (the setting less `auto`). */
export type ToolDescriptionStyle = Exclude<ToolDescriptions, 'auto'>

/** `auto` describes tools compactly to a model whose context window holds at most this many tokens. */
export const COMPACT_CONTEXT_WINDOW = 16_384

/** At most this many characters in a short description (one sentence, one line). */
export const SHORT_DESCRIPTION_MAX = 200

/** The style a run uses: the setting, or for `auto` the one the model's context window calls for (unknown: full). */
export function toolDescriptionStyle(setting: ToolDescriptions, contextWindow: number | undefined): ToolDescriptionStyle {
  if (setting !== 'auto') return setting
  return contextWindow !== undefined && contextWindow <= COMPACT_CONTEXT_WINDOW ? 'compact' : 'full'
}

/**
 * The style of one run: the setting, or for `auto` the style its context window calls for —
 * `contextWindow` is asked only then (it may ask the model's server), so the answer may be a promise.
 */
export function runToolDescriptions(setting: ToolDescriptions, contextWindow: () => Promise<number>): ToolDescriptionStyle | Promise<ToolDescriptionStyle> {
  return setting === 'auto' ? contextWindow().then((tokens) => toolDescriptionStyle(setting, tokens)) : setting
}

/**
 * The first sentence of a description, on one line, at most `max` characters (cut at a word with
 * `…`): the short description of a tool that brought none (an MCP server's).
 */
export function firstSentence(description: string, max = SHORT_DESCRIPTION_MAX): string {
  const line = description.replace(/\s+/g, ' ').trim()
  // A sentence ends at . ! ? (or their CJK forms) followed by a space or the end — not at "e.g." inside a word run.
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs))[.!?](?=\s|$)|[。！？]/u.exec(line)
  const sentence = end ? line.slice(0, end.index + end[0].length) : line
  if (sentence.length <= max) return sentence
  const cut = sentence.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`
}

/** Keywords that only explain (JSON Schema's annotations): what the model reads, never what validates. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', '$comment', 'markdownDescription', 'enumDescriptions', 'deprecated'])

/** Keywords whose value is one schema. */
const SCHEMA_VALUED = ['items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties']
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
/** Keywords whose value maps names to schemas (the names are data: a property called "description" stays). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']

/**
 * The same JSON Schema without annotations: no `description`, `title`, `examples` at any level,
 * no `$schema` at the top (the request carries no dialect either way), and a union of constants
 * (`anyOf: [{ const: 5 }, { const: 6 }]`, what an enum with a description per value becomes)
 * written as the `enum` it means. Walks only the places that hold schemas, so names of properties
 * and the values of `const`, `enum` and `default` are never touched.
 */
export function trimJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const trimmed = trimSchema(schema, true)
  return typeof trimmed === 'object' && trimmed !== null ? (trimmed as Record<string, unknown>) : schema
}

function trimSchema(schema: unknown, top = false): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema // `true` / `false` schemas
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (ANNOTATIONS.has(key) || (top && key === '$schema')) continue
    if (SCHEMA_VALUED.includes(key)) out[key] = Array.isArray(value) ? value.map((item) => trimSchema(item)) : trimSchema(value) // draft-4 tuple `items`
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((item) => trimSchema(item))
    else if (SCHEMA_MAPS.includes(key) && isPlainObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, trimSchema(sub)]))
    else if (key === 'dependencies' && isPlainObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, Array.isArray(sub) ? sub : trimSchema(sub)]))
    else out[key] = value
  }
  return constantsAsEnum(out)
}

/**
 * `{ anyOf|oneOf: [{ const: a }, { type: 'number', const: b }] }` as `{ enum: [a, b] }`: the same
 * values pass (a `const` implies its type; `oneOf` only when no value is listed twice).
 */
function constantsAsEnum(schema: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key]
    if (!Array.isArray(members) || members.length === 0 || 'enum' in schema) continue
    const values: unknown[] = []
    for (const member of members) {
      if (!isPlainObject(member) || !('const' in member)) return schema
      const extra = Object.keys(member).filter((k) => k !== 'const' && k !== 'type')
      if (extra.length > 0 || (member.type !== undefined && member.type !== jsonTypeOf(member.const))) return schema
      values.push(member.const)
    }
    const distinct = new Set(values.map((value) => JSON.stringify(value)))
    if (key === 'oneOf' && distinct.size !== values.length) return schema
    const { [key]: _members, ...rest } = schema
    return { ...rest, enum: values }
  }
  return schema
}

/** The JSON Schema type a constant has (`integer` counts as `number` only when the member said number). */
function jsonTypeOf(value: unknown): string | undefined {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value
  return undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
