import { describe, expect, it } from 'vitest'
import type { AgentToolServices, BrowserToolServices, CodeToolServices, DesktopToolServices, HardwareToolServices, MemoryToolServices } from '../../../src/main/tools'
import type { MessagingToolServices, NotifyToolServices, ScheduleToolServices, WebToolServices } from '../../../src/main/tools'
import { createAgentTools, createBrowserTools, createCheckTools, createCodeTools, createDesktopTools, createFileTools, createGitTools } from '../../../src/main/tools'
import { createHardwareTools, createMemoryTools, createMessagingTools, createNotifyTools, createScheduleTools, createSearchTools } from '../../../src/main/tools'
import { createShellTools, createWebTools, defineTool, ToolRepeatKinds, type AnyTool } from '../../../src/main/tools'
import { createMcpTool } from '../../../src/main/mcp'
import { repeatHandling } from '../../../src/main/agent'
import { noSink, trusted } from '../../../src/main/provenance'
import { NativeRuntime } from '../../../src/main/runtime'

/**
 * Every tool says whether an identical repeat can give a new answer or effect (docs/architecture.md,
 * "Result cache and repeated writes"), and the loop treats it by that declaration alone: a
 * `same-answer` read is served from the cache, a `same-answer` write is flagged, a `may-differ`
 * call always runs. The table below is the expected declaration of every registered tool; a new
 * tool fails here until it is added.
 */
const unused = {} as never
const mcpTool = (readOnlyHint: boolean, trust: boolean): AnyTool =>
  createMcpTool({ name: 'srv' } as never, { name: readOnlyHint ? 'lookup' : 'act', inputSchema: { type: 'object' }, annotations: { readOnlyHint } }, { trustReadOnlyHints: trust })

function allTools(): AnyTool[] {
  const runtime = new NativeRuntime()
  return [
    createFileTools(),
    createShellTools({ runtime }),
    createDesktopTools(unused as DesktopToolServices),
    createBrowserTools(unused as BrowserToolServices),
    createHardwareTools(unused as HardwareToolServices),
    createMessagingTools(unused as MessagingToolServices),
    createWebTools(unused as WebToolServices),
    createMemoryTools(unused as MemoryToolServices),
    createNotifyTools(unused as NotifyToolServices),
    createSearchTools(),
    createGitTools({ runtime }),
    createCheckTools({ runtime }),
    createCodeTools(unused as CodeToolServices),
    createScheduleTools(unused as ScheduleToolServices),
    createAgentTools(unused as AgentToolServices)
  ]
    .flatMap((pack) => [...pack.tools()])
    .concat([mcpTool(true, true), mcpTool(false, false)])
}

/** Only what reads or writes workspace files gives the same answer when nothing was written since. */
const SAME_ANSWER = new Set(['file_read', 'file_list', 'grep', 'glob', 'file_write', 'file_edit'])
/** Everything else: a command, a page, the screen, input, a device, a server, memory, time. */
const MAY_DIFFER = new Set([
  'shell', 'run_code', 'git', 'lint',
  'screenshot', 'mouse_click', 'mouse_move', 'mouse_drag', 'scroll', 'key_press', 'type_text', 'window_list', 'window_focus', 'cursor_position', 'clipboard_read', 'clipboard_write',
  'browser_open', 'browser_click', 'browser_type', 'browser_press', 'browser_select', 'browser_check', 'browser_upload', 'browser_wait', 'browser_read', 'browser_snapshot', 'browser_screenshot', 'browser_tabs', 'browser_close', 'browser_history',
  'devices_list', 'serial_open', 'serial_read', 'serial_write', 'serial_close',
  'desktop_send_text', 'web_fetch', 'http_request', 'memory_save', 'memory_search', 'memory_update', 'memory_forget', 'notify', 'schedule', 'delegate',
  'lookup', 'act'
])

describe('repeat declarations', () => {
  const tools = allTools()

  it('every registered tool declares whether an identical repeat can give a new answer, as the table says', () => {
    expect(tools.length).toBeGreaterThan(40)
    for (const tool of tools) {
      expect(ToolRepeatKinds, `${tool.name} declares repeat`).toContain(tool.repeat)
      const expected = SAME_ANSWER.has(tool.name) ? 'same-answer' : MAY_DIFFER.has(tool.name) ? 'may-differ' : 'missing from the table'
      expect(`${tool.name}: ${tool.repeat}`).toBe(`${tool.name}: ${expected}`)
    }
    // Every name in the table is a real tool (no stale rows).
    const names = new Set(tools.map((tool) => tool.name))
    for (const name of [...SAME_ANSWER, ...MAY_DIFFER]) expect(names, name).toContain(name)
  })

  it('the loop handles each tool by its declaration: same-answer reads cached, same-answer writes flagged, may-differ always run', () => {
    for (const tool of tools) {
      const handling = repeatHandling(tool)
      if (tool.repeat === 'may-differ') expect(`${tool.name}: ${handling}`).toBe(`${tool.name}: run`)
      else expect(`${tool.name}: ${handling}`).toBe(`${tool.name}: ${tool.access === 'read' ? 'cache' : 'flag'}`)
    }
  })

  it('a tool without the declaration is refused when it is defined', () => {
    const base = { name: 'no_repeat', description: 'x', category: 'fs', access: 'read', source: trusted, sink: noSink, input: undefined as never, summary: () => '', preview: () => ({ title: { key: 't' }, fields: [] }), messages: { en: {}, 'zh-CN': {} }, run: async () => ({ forLlm: '', isError: false }) }
    expect(() => defineTool(base as never)).toThrow(/must declare repeat/)
    expect(() => defineTool({ ...base, repeat: 'sometimes' } as never)).toThrow(/must declare repeat/)
  })
})
