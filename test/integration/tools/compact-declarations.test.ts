/**
 * Compact tool declarations (docs/tools.md, "Compact tool descriptions"), over every tool the app
 * registers — the built-in packs as DeskclawApp composes them, and an MCP server's tools (server-
 * everything over stdio): each has a one-line short description; the compact schema accepts and
 * refuses exactly the arguments the full one does (samples made from the full schema, which is the
 * zod input's, and checked against zod too); and the compact declaration is smaller.
 */
import { writeFileSync } from 'node:fs'
import { Validator, type Schema } from '@cfworker/json-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpConfigPath } from '../../../src/main/mcp'
import { SHORT_DESCRIPTION_MAX, type ModelToolDeclaration } from '../../../src/main/tools'
import { argumentSamples } from '../../helpers/json-schema-samples'
import { EVERYTHING_SERVER } from '../../helpers/mcp'
import { createTempApp, runPrompt, scriptedApps, type TempApp } from '../../helpers/temp-app'

let temp: TempApp

beforeAll(async () => {
  temp = createTempApp('http://127.0.0.1:9/v1')
  writeFileSync(mcpConfigPath(temp.dataDir), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }))
  await temp.app.mcp.reload()
  await temp.app.mcp.ready()
})

afterAll(async () => {
  await temp?.dispose()
})

/** A validator for a schema, in the draft the full schema names (zod's: 2020-12). */
function validator(schema: Record<string, unknown>, draftOf: Record<string, unknown>) {
  const named = String(draftOf.$schema ?? '')
  const draft = named.includes('draft-07') ? '7' : named.includes('draft-04') ? '4' : named.includes('2019-09') ? '2019-09' : '2020-12'
  const checker = new Validator(schema as Schema, draft, false)
  return (value: unknown) => checker.validate(value).valid
}

const size = (declaration: ModelToolDeclaration) => JSON.stringify({ name: declaration.name, description: declaration.description, parameters: declaration.inputSchema }).length

describe('compact tool declarations, over every registered tool', () => {
  it('covers the built-in packs and the MCP server', () => {
    const names = temp.app.registry.names()
    expect(names.length).toBeGreaterThan(40)
    expect(names.filter((name) => name.startsWith('mcp__everything__')).length).toBeGreaterThan(3)
  })

  it('every tool has a short description: one line, not empty, at most 200 characters', () => {
    for (const definition of temp.app.registry.list()) {
      const short = definition.shortDescription
      expect(short, definition.name).toBeTypeOf('string')
      expect(short!.trim().length, definition.name).toBeGreaterThan(10)
      expect(short!.length, definition.name).toBeLessThanOrEqual(SHORT_DESCRIPTION_MAX)
      expect(short, definition.name).not.toMatch(/[\r\n]/)
    }
  })

  it('the compact schema accepts and refuses exactly what the full one does', () => {
    const full = new Map(temp.app.registry.toModelTools('full').map((d) => [d.name, d]))
    let checked = 0
    for (const compact of temp.app.registry.toModelTools('compact')) {
      const declared = full.get(compact.name)!
      const definition = temp.app.registry.get(compact.name)!
      const byFull = validator(declared.inputSchema, declared.inputSchema)
      const byCompact = validator(compact.inputSchema, declared.inputSchema)
      const { valid, invalid } = argumentSamples(declared.inputSchema)
      // The samples mean something: a valid one passes, and some fail.
      expect(valid.length, compact.name).toBeGreaterThan(0)
      expect(valid.every(byFull), `${compact.name}: ${JSON.stringify(valid)}`).toBe(true)
      expect(invalid.filter((sample) => !byFull(sample)).length, compact.name).toBeGreaterThan(0)
      for (const sample of [...valid, ...invalid]) {
        expect(byCompact(sample), `${compact.name} ${JSON.stringify(sample)}`).toBe(byFull(sample))
        // The full schema is the zod input's: what zod accepts, it accepts (zod may refuse more: refinements).
        if (!definition.inputJsonSchema && definition.input.safeParse(sample).success) expect(byFull(sample), `${compact.name} ${JSON.stringify(sample)}`).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(1000)
  })

  it('each compact declaration is smaller than the full one, and the set is much smaller', () => {
    const full = temp.app.registry.toModelTools('full')
    const compact = temp.app.registry.toModelTools('compact')
    expect(compact.map((d) => d.name)).toEqual(full.map((d) => d.name))
    compact.forEach((declaration, i) => expect(size(declaration), declaration.name).toBeLessThan(size(full[i]!)))
    const total = (set: readonly ModelToolDeclaration[]) => set.reduce((sum, d) => sum + size(d), 0)
    expect(total(compact)).toBeLessThan(total(full) * 0.75)
  })
})

describe('which declarations a run sends (toolDescriptions)', () => {
  const apps = scriptedApps()
  const sent = () => {
    const tools = apps.server().requests[0]!.body.tools as Array<{ function: { name: string; description: string; parameters: unknown } }>
    return tools.map((t) => ({ name: t.function.name, description: t.function.description, inputSchema: t.function.parameters }))
  }
  const declared = (app: TempApp, style: 'full' | 'compact') => app.app.registry.toModelTools(style)

  it('auto: compact for a window of 16,384 tokens or less, full above (and for a server that names none)', async () => {
    let app = await apps.setup([{ text: 'ok' }], { contextWindow: 16_384 })
    await runPrompt(app, 'hello')
    expect(apps.server().lookups).toEqual([]) // the setting says it: nothing to ask
    expect(sent()).toEqual(declared(app, 'compact'))

    app = await apps.setup([{ text: 'ok' }], { contextWindow: 16_385 })
    await runPrompt(app, 'hello')
    expect(sent()).toEqual(declared(app, 'full'))

    app = await apps.setup([{ text: 'ok' }])
    await runPrompt(app, 'hello')
    expect(apps.server().lookups.map((r) => r.path)[0]).toBe('/v1/models') // the window was asked of the server
    expect(sent()).toEqual(declared(app, 'full')) // it named none: the provider's default, above the cut-off
  })

  it('full and compact are sent as set, whatever the window', async () => {
    let app = await apps.setup([{ text: 'ok' }], { toolDescriptions: 'full', contextWindow: 4096 })
    await runPrompt(app, 'hello')
    expect(sent()).toEqual(declared(app, 'full'))
    app = await apps.setup([{ text: 'ok' }], { toolDescriptions: 'compact', contextWindow: 1_000_000 })
    await runPrompt(app, 'hello')
    expect(sent()).toEqual(declared(app, 'compact'))
  })
})
