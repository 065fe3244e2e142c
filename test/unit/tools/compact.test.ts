import { Validator, type Schema } from '@cfworker/json-schema'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { noSink, untrusted } from '../../../src/main/provenance'
import { defineTool, firstSentence, MutableToolSource, ok, runToolDescriptions, text, toolDescriptionStyle, ToolRegistry, trimJsonSchema } from '../../../src/main/tools'

const accepts = (schema: Record<string, unknown>, value: unknown) => new Validator(schema as Schema, '2020-12', false).validate(value).valid

describe('firstSentence', () => {
  it('keeps the first sentence on one line, not cut at "e.g."', () => {
    expect(firstSentence('Read a file.\nReturns numbered lines.')).toBe('Read a file.')
    expect(firstSentence('Press a key, e.g. "enter" or "esc".  Then more.')).toBe('Press a key, e.g. "enter" or "esc".')
    expect(firstSentence('读取文件。返回带行号的内容。')).toBe('读取文件。')
    expect(firstSentence('No full stop at all')).toBe('No full stop at all')
    expect(firstSentence('Version 1.5 is out. Next.')).toBe('Version 1.5 is out.')
  })

  it('cuts a long sentence at a word, within the bound', () => {
    const long = `${'word '.repeat(100)}end.`
    const short = firstSentence(long, 60)
    expect(short.length).toBeLessThanOrEqual(60)
    expect(short).toMatch(/^word( word)*…$/)
  })
})

describe('trimJsonSchema', () => {
  it('drops annotations at every level but keeps property names, constants and defaults', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Args',
      description: 'The arguments',
      type: 'object',
      properties: {
        description: { type: 'string', description: 'a property called description', examples: ['x'], default: 'none' },
        title: { const: 'title', title: 'kept as a property' },
        nested: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer', minimum: 1, description: 'drop me' } }, required: ['a'] } }
      },
      required: ['description'],
      additionalProperties: false
    }
    expect(trimJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        description: { type: 'string', default: 'none' },
        title: { const: 'title' },
        nested: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer', minimum: 1 } }, required: ['a'] } }
      },
      required: ['description'],
      additionalProperties: false
    })
    // The input is left as it was (the full declarations use it).
    expect(schema.properties.description.description).toBe('a property called description')
  })

  it('writes a union of described constants as the enum it means, and keeps what is not one', () => {
    const bits = { anyOf: [{ type: 'number', const: 5, description: 'five' }, { type: 'number', const: 6 }, { const: 7.5 }], default: 8 }
    expect(trimJsonSchema(bits)).toEqual({ enum: [5, 6, 7.5], default: 8 })
    // A member with more than a constant, or a constant of another type than it says, stays a union.
    const mixed = { anyOf: [{ const: 1 }, { type: 'string', minLength: 2 }] }
    expect(trimJsonSchema(mixed)).toEqual(mixed)
    expect(trimJsonSchema({ anyOf: [{ type: 'integer', const: 1 }] })).toEqual({ anyOf: [{ type: 'integer', const: 1 }] })
    // oneOf with a value listed twice rejects that value; an enum would accept it.
    const twice = { oneOf: [{ const: 'a' }, { const: 'a' }, { const: 'b' }] }
    expect(trimJsonSchema(twice)).toEqual(twice)
    for (const value of ['a', 'b', 'c', 5, 6, 7.5, 7]) {
      expect(accepts(trimJsonSchema(twice), value)).toBe(accepts(twice, value))
      expect(accepts(trimJsonSchema(bits), value)).toBe(accepts(bits, value))
    }
  })
})

describe('toolDescriptionStyle', () => {
  it('follows the setting, and for auto the context window (16,384 tokens or less: compact)', () => {
    expect(toolDescriptionStyle('full', 4096)).toBe('full')
    expect(toolDescriptionStyle('compact', 1_000_000)).toBe('compact')
    expect(toolDescriptionStyle('auto', 16_384)).toBe('compact')
    expect(toolDescriptionStyle('auto', 16_385)).toBe('full')
    expect(toolDescriptionStyle('auto', undefined)).toBe('full')
  })

  it('asks for the context window of a run only for auto', async () => {
    let asked = 0
    const window = (tokens: number) => async () => (asked++, tokens)
    expect(runToolDescriptions('full', window(4096))).toBe('full')
    expect(runToolDescriptions('compact', window(200_000))).toBe('compact')
    expect(asked).toBe(0)
    expect(await runToolDescriptions('auto', window(8192))).toBe('compact')
    expect(await runToolDescriptions('auto', window(128_000))).toBe('full')
    expect(asked).toBe(2)
  })
})

describe('compact declarations in the registry', () => {
  const tool = (name: string, shortDescription?: string) =>
    defineTool({
      name,
      repeat: 'may-differ',
      description: `The ${name} tool. It has a second sentence.`,
      ...(shortDescription ? { shortDescription } : {}),
      category: 'mcp',
      access: 'read',
      source: untrusted('mcp'),
      sink: noSink,
      input: z.object({ x: z.string().describe('What x is').optional() }),
      summary: () => name,
      preview: () => ({ title: text('title'), fields: [] }),
      messages: { en: { title: name }, 'zh-CN': { title: name } },
      run: async () => ok(name)
    })

  it('caches both sets and rebuilds both after a source changed', () => {
    const source = new MutableToolSource('srv', 'mcp__srv')
    const registry = new ToolRegistry([source])
    source.set([tool('ping', 'Ping with "x".')])
    const full = registry.toModelTools('full')
    const compact = registry.toModelTools('compact')
    expect(registry.toModelTools('full')).toBe(full)
    expect(registry.toModelTools('compact')).toBe(compact)
    expect(registry.toModelTools()).toBe(full)
    expect(registry.toModelTools('compact')).toEqual([{ name: 'mcp__srv__ping', description: 'Ping with "x".', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }])
    expect(registry.toModelTools('full')[0]!.description).toBe('The ping tool. It has a second sentence.')
    expect(registry.sourceOf('mcp__srv__ping')).toBe('srv')

    source.set([tool('pong')]) // no short description: the first sentence
    expect(registry.toModelTools('full')).not.toBe(full)
    expect(registry.toModelTools('compact')).not.toBe(compact)
    expect(registry.toModelTools('compact').map((d) => [d.name, d.description])).toEqual([['mcp__srv__pong', 'The pong tool.']])
  })
})
