/**
 * Tokens of the tool declarations, full and compact (docs/tools.md, "Compact tool descriptions";
 * figures in docs/benchmarks.md). What is counted is what a run sends: the `tools` array of a real
 * request body, recorded by the scripted OpenAI server (test/fixtures/scripted-openai.ts) from an app
 * built as DeskclawApp builds it, with server-everything's tools over MCP beside the built-in packs —
 * once with `toolDescriptions: 'full'`, once with `'compact'`. Counted with OpenAI's BPE encodings
 * (gpt-tokenizer: o200k_base, cl100k_base), whole and per pack, side by side with the ratio. Then the
 * time to build each declaration set after a source change, compact beside full (its floor).
 * Run: npx vitest bench --run --project unit bench/tool-tokens.bench.ts
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, bench, describe } from 'vitest'
import { mcpConfigPath } from '../src/main/mcp'
import { toolPack, type ToolRegistry } from '../src/main/tools'
import type { ToolDescriptions } from '../src/shared'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import { EVERYTHING_SERVER } from '../test/helpers/mcp'
import { createTempApp, runPrompt, type TempApp } from '../test/helpers/temp-app'

interface WireTool {
  type: 'function'
  function: { name: string; description: string; parameters: unknown }
}

const apps: TempApp[] = []
const servers: Array<{ close(): Promise<void> }> = []
afterAll(async () => {
  for (const app of apps) await app.dispose()
  for (const server of servers) await server.close()
})

/** The `tools` of the first model request a run sends with this setting, and the app's registry. */
async function recordedTools(toolDescriptions: ToolDescriptions): Promise<{ tools: WireTool[]; registry: ToolRegistry }> {
  const server = await startScriptedOpenAI([{ text: 'done' }])
  servers.push(server)
  const temp = createTempApp(server.url, { toolDescriptions })
  apps.push(temp)
  writeFileSync(mcpConfigPath(temp.dataDir), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }))
  await temp.app.mcp.reload()
  await temp.app.mcp.ready()
  await runPrompt(temp, 'hello')
  return { tools: server.requests[0]!.body.tools as WireTool[], registry: temp.app.registry }
}

const full = await recordedTools('full')
const compact = await recordedTools('compact')
const packOf = (name: string) => full.registry.sourceOf(name) ?? '?'

interface Row {
  pack: string
  tools: number
  chars: [number, number]
  o200k: [number, number]
  cl100k: [number, number]
}
const measure = (pack: string, fullTools: WireTool[], compactTools: WireTool[]): Row => {
  const [a, b] = [JSON.stringify(fullTools), JSON.stringify(compactTools)]
  return { pack, tools: fullTools.length, chars: [a.length, b.length], o200k: [o200k(a), o200k(b)], cl100k: [cl100k(a), cl100k(b)] }
}
const packs = [...new Set(full.tools.map((t) => packOf(t.function.name)))]
const inPack = (tools: WireTool[], pack: string) => tools.filter((t) => packOf(t.function.name) === pack)
const builtIn = (tools: WireTool[]) => tools.filter((t) => !t.function.name.startsWith('mcp__'))
const rows = [
  ...packs.map((pack) => measure(pack, inPack(full.tools, pack), inPack(compact.tools, pack))),
  measure('built-in packs', builtIn(full.tools), builtIn(compact.tools)),
  measure('all (with MCP)', full.tools, compact.tools)
]

const pair = ([a, b]: [number, number]) => `${String(a).padStart(6)} ${String(b).padStart(6)} ${(b / a).toFixed(2).padStart(5)}`
console.log(`\ntool declarations as sent (the request's "tools"), full vs compact; load average ${loadavg().map((n) => n.toFixed(2)).join(', ')}`)
console.log(`${'pack'.padEnd(22)} ${'tools'.padStart(5)}   chars: full compact ratio   o200k: full compact ratio   cl100k: full compact ratio`)
for (const row of rows) {
  console.log(`${row.pack.padEnd(22)} ${String(row.tools).padStart(5)}   ${pair(row.chars).padStart(25)}   ${pair(row.o200k).padStart(25)}   ${pair(row.cl100k).padStart(26)}`)
}

// Building each set after a change: compact is full plus the trim, so full is its floor.
describe('declarations for the next model step after a source change', () => {
  const registry = full.registry
  const change = () => registry.addSource(toolPack('bench-change', []))() // added and removed: both sets are dropped
  bench('full (floor)', () => {
    change()
    registry.toModelTools('full')
  })
  bench('compact', () => {
    change()
    registry.toModelTools('compact')
  })
})
