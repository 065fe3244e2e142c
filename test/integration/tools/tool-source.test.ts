/**
 * A dynamic tool source (what an MCP client is) adds and removes tools during a conversation; the
 * next model step sees the change, and a removed tool's call is a clear error, not a crash.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { noSink, untrusted } from '../../../src/main/provenance'
import { defineTool, MutableToolSource, ok, text } from '../../../src/main/tools'
import type { RecordedRequest } from '../../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../../helpers/temp-app'

const apps = scriptedApps()

const echoTool = defineTool({
  name: 'echo.v2', // MCP tool names may hold characters model APIs refuse
  repeat: 'may-differ',
  description: 'Echo the text back.',
  category: 'mcp',
  access: 'read',
  source: untrusted('mcp'),
  sink: noSink,
  input: z.object({ text: z.string() }),
  summary: (args) => args.text,
  preview: (args) => ({ title: text('title'), fields: [{ label: text('text'), value: args.text }] }),
  messages: { en: { title: 'Echo', text: 'Text' }, 'zh-CN': { title: '回显', text: '文本' } },
  run: async (args) => ok(`echo: ${args.text}`)
})

const toolNames = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name).sort()

describe('a dynamic tool source', () => {
  it('adds and removes tools between model steps of one run', async () => {
    const source = new MutableToolSource('demo-server', 'mcp__demo')
    const app = await apps.setup(
      [
        () => {
          source.set([echoTool]) // appears while step 1 is answered
          return { toolCalls: [{ name: 'file_list', args: {} }] }
        },
        () => ({ toolCalls: [{ name: 'mcp__demo__echo_v2', args: { text: 'hello' } }] }),
        () => {
          source.set([]) // the server dropped it
          return { toolCalls: [{ name: 'mcp__demo__echo_v2', args: { text: 'again' } }] }
        },
        { text: 'done' }
      ],
      {},
      { toolSources: [source] }
    )
    const changes: string[] = []
    app.app.events.subscribe((event) => {
      if (event.kind === 'tools_changed') changes.push(app.app.registry.names().join(','))
    })
    const { outcome, events } = await runPrompt(app, 'use the demo server')
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'final' })

    const requests = apps.server().requests.filter((r) => r.method === 'POST')
    expect(toolNames(requests[0]!)).not.toContain('mcp__demo__echo_v2')
    expect(toolNames(requests[1]!)).toContain('mcp__demo__echo_v2')
    expect(toolNames(requests[3]!)).not.toContain('mcp__demo__echo_v2')

    const results = events.filter((e) => e.type === 'tool_call_completed')
    expect(results[1]).toMatchObject({ tool: 'mcp__demo__echo_v2', status: 'completed', output: 'echo: hello' })
    expect(results[2]).toMatchObject({ tool: 'mcp__demo__echo_v2', status: 'error', isError: true })
    // A read of a dynamic tool runs without asking, like any read.
    expect(events.some((e) => e.type === 'approval_requested')).toBe(false)
    expect(changes).toHaveLength(2)
    expect(changes[0]).toContain('mcp__demo__echo_v2')
    expect(changes[1]).not.toContain('mcp__demo__echo_v2')
  })
})
