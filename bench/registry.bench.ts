/**
 * What a tool source change costs, with the tool counts DeskClaw is heading for: after a source
 * (an MCP server) changes, the registry rebuilds its model declarations (zod → JSON Schema) on the
 * next model step. Run: npx vitest bench --run bench/registry.bench.ts
 */
import { bench, describe } from 'vitest'
import { z } from 'zod'
import { noSink, untrusted } from '../src/main/provenance'
import { defineTool, MutableToolSource, ok, text, ToolRegistry, type AnyTool } from '../src/main/tools'

/** A tool with a realistic schema: a few strings, a number, an enum, an optional nested object. */
function sampleTool(name: string): AnyTool {
  return defineTool({
    name,
    repeat: 'may-differ',
    description: `Sample tool ${name} with a schema of realistic size.`,
    category: 'mcp',
    access: 'read',
    source: untrusted('mcp'),
    sink: noSink,
    input: z.object({
      target: z.string().describe('What to act on'),
      mode: z.enum(['fast', 'careful', 'dry-run']).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
      options: z.object({ recursive: z.boolean().optional(), pattern: z.string().optional() }).optional()
    }),
    summary: (args) => args.target,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('target'), value: args.target }] }),
    messages: { en: { title: name, target: 'Target' }, 'zh-CN': { title: name, target: '目标' } },
    run: async () => ok('done')
  })
}

for (const count of [40, 200]) {
  describe(`${count} tools`, () => {
    const source = new MutableToolSource('bench', 'mcp__bench')
    const registry = new ToolRegistry([source])
    const sets = [0, 1].map((variant) => Array.from({ length: count }, (_, i) => sampleTool(`tool_${variant}_${i}`)))
    let flip = 0

    bench('source change + declarations for the next model step', () => {
      source.set(sets[(flip ^= 1)]!)
      registry.toModelTools()
    })

    bench('declarations when nothing changed (cached)', () => {
      registry.toModelTools()
    })
  })
}
