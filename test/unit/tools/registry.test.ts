import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { noSink, untrusted } from '../../../src/main/provenance'
import { defineTool, MutableToolSource, namespacedToolName, ok, text, toolPack, ToolRegistry } from '../../../src/main/tools'

const make = (name: string, access: 'read' | 'write' = 'read') =>
  defineTool({
    name,
    repeat: 'may-differ',
    description: `The ${name} tool`,
    category: 'mcp',
    access,
    source: untrusted('mcp'),
    sink: noSink,
    input: z.object({ x: z.string().optional() }),
    summary: () => name,
    preview: () => ({ title: text('title'), fields: [] }),
    messages: { en: { title: name }, 'zh-CN': { title: name } },
    run: async () => ok(name)
  })

describe('ToolRegistry with sources', () => {
  it('namespaces a dynamic source, keeping names every model API accepts', () => {
    expect(namespacedToolName('mcp__github', 'create_issue')).toBe('mcp__github__create_issue')
    expect(namespacedToolName('mcp__fs', 'read.file/v2')).toBe('mcp__fs__read_file_v2')
    const long = namespacedToolName('mcp__server', 'x'.repeat(100))
    expect(long).toMatch(/^[A-Za-z0-9_-]{64}$/)
    expect(long).not.toBe(namespacedToolName('mcp__server', `${'x'.repeat(99)}y`))
  })

  it('sees a source change at once: list, model declarations, catalogue and listeners', () => {
    const source = new MutableToolSource('srv', 'mcp__srv')
    const registry = new ToolRegistry([toolPack('core', [make('core_tool')]), source])
    let changes = 0
    registry.onChange(() => changes++)
    const before = registry.toModelTools()
    expect(before.map((tool) => tool.name)).toEqual(['core_tool'])
    expect(registry.toModelTools()).toBe(before) // cached while nothing changes

    source.set([make('ping', 'write')])
    expect(changes).toBe(1)
    expect(registry.toModelTools().map((tool) => tool.name).sort()).toEqual(['core_tool', 'mcp__srv__ping'])
    expect(registry.get('mcp__srv__ping')).toMatchObject({ name: 'mcp__srv__ping', access: 'write' })
    expect(registry.catalog().map((info) => info.name)).toContain('mcp__srv__ping')

    source.set([])
    expect(registry.names()).toEqual(['core_tool'])
    expect(registry.removeSource('srv')).toBe(true)
    source.set([make('ping')]) // a removed source is no longer listened to
    expect(registry.names()).toEqual(['core_tool'])
    expect(changes).toBe(3)
  })

  it('adds and removes sources at run time', async () => {
    const registry = new ToolRegistry([])
    const remove = registry.addSource(toolPack('extra', [make('extra_tool')]))
    expect(registry.names()).toEqual(['extra_tool'])
    remove()
    expect(registry.names()).toEqual([])
    const gone = await registry.execute('extra_tool', {}, {
      workspace: '/tmp', conversationId: 'c', runId: 'r', callId: 'x', signal: new AbortController().signal, onOutput: () => {}
    })
    expect(gone).toEqual({
      forLlm: 'The tool "extra_tool" is no longer available.',
      isError: true,
      display: { key: 'toolRun.unavailable', params: { tool: 'extra_tool' } }
    })
  })

  it('refuses two packs with one name, and leaves out a dynamic tool that collides', () => {
    expect(() => new ToolRegistry([toolPack('a', [make('same')]), toolPack('b', [make('same')])])).toThrow(/has the name of another tool/)
    expect(() => new ToolRegistry([toolPack('a', [make('bad.name')])])).toThrow(/must be 1-64 letters/)
    expect(() => new ToolRegistry([toolPack('a', [make('x')]), toolPack('a', [make('y')])])).toThrow(/added twice/)
  })
})
