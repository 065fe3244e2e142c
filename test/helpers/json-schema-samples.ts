/**
 * Arguments made from a JSON Schema, to hold two schemas to the same verdicts (the compact tool
 * declarations, docs/tools.md): a minimal and a complete valid object, and invalid ones — each
 * required property left out, each property given the wrong type, a value past each bound, an
 * unknown choice — down to nested objects and array items.
 */
type Schema = Record<string, unknown>

const NONE = Symbol('no value')
type Value = unknown | typeof NONE

export interface ArgumentSamples {
  valid: Record<string, unknown>[]
  invalid: unknown[]
}

export function argumentSamples(schema: Schema): ArgumentSamples {
  const minimal = validValue(schema, false, 0)
  const complete = validValue(schema, true, 0)
  const valid = [minimal, complete].filter((value): value is Record<string, unknown> => value !== NONE && isObject(value))
  const invalid: unknown[] = [null, [], 'text', ...(valid.length > 0 ? mutations(schema, valid[valid.length - 1], 0) : [])]
  return { valid, invalid }
}

/** Strings tried, in order, for a string schema with a pattern or bounds. */
const STRING_CANDIDATES = ['e12', 'abc', 'a', 'hello world', 'src/a.ts', '0 9 * * 1-5', '2026-12-01T09:00', 'https://example.com/', '41 54', 'Enter', 'mem_1', 'x1']

function validValue(schema: Schema, complete: boolean, depth: number): Value {
  if (depth > 6) return NONE
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key]
    if (Array.isArray(members)) {
      for (const member of members) {
        const value = isObject(member) ? validValue(member, complete, depth + 1) : NONE
        if (value !== NONE) return value
      }
      return NONE
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged = Object.assign({}, ...schema.allOf.filter(isObject), { ...schema, allOf: undefined }) as Schema
    delete merged.allOf
    return validValue(merged, complete, depth + 1)
  }
  switch (typeOf(schema)) {
    case 'string':
      return STRING_CANDIDATES.concat('x'.repeat(Math.max(1, Number(schema.minLength ?? 1)))).find((text) => stringFits(schema, text)) ?? NONE
    case 'integer':
    case 'number': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1
      const value = Math.ceil(low)
      return typeof schema.maximum === 'number' && value > schema.maximum ? NONE : value
    }
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array': {
      const count = Math.max(Number(schema.minItems ?? 0), complete ? 1 : 0)
      if (count === 0) return []
      const item = isObject(schema.items) ? validValue(schema.items, complete, depth + 1) : 'x'
      return item === NONE ? NONE : Array.from({ length: count }, () => item)
    }
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {}
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
      const out: Record<string, unknown> = {}
      for (const [name, sub] of Object.entries(properties)) {
        if (!complete && !required.includes(name)) continue
        const value = isObject(sub) ? validValue(sub, complete, depth + 1) : 'x'
        if (value === NONE) {
          if (required.includes(name)) return NONE
          continue
        }
        out[name] = value
      }
      return out
    }
    default:
      return 'x'
  }
}

/** Values that break `schema` in one place each, starting from the valid `value`. */
function mutations(schema: Schema, value: unknown, depth: number): unknown[] {
  if (depth > 4) return []
  const out: unknown[] = []
  if ('const' in schema) out.push(typeof schema.const === 'string' ? `${schema.const}-other` : 'other')
  if (Array.isArray(schema.enum)) out.push('__not_a_choice__', 987654)
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) out.push('__no_member__', 987654, { unknown: true })
  }
  switch (typeOf(schema)) {
    case 'string': {
      out.push(12345, true)
      if (typeof schema.maxLength === 'number') out.push('x'.repeat(schema.maxLength + 1))
      if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push('')
      if (typeof schema.pattern === 'string') out.push('!! no match ¿')
      break
    }
    case 'integer':
    case 'number': {
      out.push('12', false)
      if (typeof schema.maximum === 'number') out.push(schema.maximum + 1)
      if (typeof schema.minimum === 'number') out.push(schema.minimum - 1)
      if (typeOf(schema) === 'integer' && typeof value === 'number') out.push(value + 0.5)
      break
    }
    case 'boolean':
      out.push('yes', 1)
      break
    case 'array': {
      out.push('not a list', { 0: 'x' })
      const items = Array.isArray(value) ? value : []
      if (typeof schema.maxItems === 'number') out.push(Array.from({ length: schema.maxItems + 1 }, () => items[0] ?? 'x'))
      if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push([])
      if (isObject(schema.items) && items.length > 0) for (const bad of mutations(schema.items, items[0], depth + 1)) out.push([bad, ...items.slice(1)])
      break
    }
    case 'object': {
      out.push('not an object', [value])
      if (!isObject(value)) break
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
      for (const name of required) {
        const { [name]: _left, ...rest } = value
        out.push(rest)
      }
      if (required.length > 0) out.push({})
      if (schema.additionalProperties === false) out.push({ ...value, __unknown__: 1 })
      const properties = isObject(schema.properties) ? schema.properties : {}
      for (const [name, sub] of Object.entries(properties)) {
        if (!isObject(sub) || !(name in value)) continue
        for (const bad of mutations(sub, value[name], depth + 1)) out.push({ ...value, [name]: bad })
      }
      break
    }
  }
  return out
}

function stringFits(schema: Schema, text: string): boolean {
  if (typeof schema.minLength === 'number' && [...text].length < schema.minLength) return false
  if (typeof schema.maxLength === 'number' && [...text].length > schema.maxLength) return false
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(text)) return false
  if (schema.format === 'uri' || schema.format === 'url') return /^https?:\/\//.test(text)
  return true
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') as string | undefined
  if (typeof schema.type === 'string') return schema.type
  if (isObject(schema.properties)) return 'object'
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
