import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'

// Without a display (no DISPLAY, or a Wayland session without X) every desktop tool answers
// "desktop unavailable: <why>", the CLI says so in one line, and the app goes on serving the rest.
const DESKTOP_CALLS: Array<{ name: string; args: Record<string, unknown> }> = [
  { name: 'screenshot', args: {} },
  { name: 'cursor_position', args: {} },
  { name: 'window_list', args: {} },
  { name: 'mouse_move', args: { x: 10, y: 10 } },
  { name: 'mouse_click', args: { x: 10, y: 10 } },
  { name: 'mouse_drag', args: { from_x: 10, from_y: 10, to_x: 50, to_y: 50 } },
  { name: 'scroll', args: { direction: 'down', x: 10, y: 10 } },
  { name: 'key_press', args: { keys: 'ctrl+s' } },
  { name: 'type_text', args: { text: '你好 ok' } },
  { name: 'window_focus', args: { title: 'Editor' } },
  { name: 'clipboard_read', args: {} },
  { name: 'clipboard_write', args: { text: 'x' } }
]

const completed = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'tool_call_completed' }> => e.type === 'tool_call_completed')

describe('desktop without a display', () => {
  for (const [label, env, autonomy] of [
    ['no DISPLAY', {}, 'full'],
    ['no DISPLAY', {}, 'supervised'],
    ['Wayland without X', { WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland' }, 'supervised']
  ] as const) {
    it(`every desktop tool answers "desktop unavailable: …" (${label}, ${autonomy}) without asking, and the file tools still work`, async () => {
      const server = await startScriptedOpenAI([
        { toolCalls: DESKTOP_CALLS.map((c, i) => ({ ...c, id: `d${i}` })) },
        { toolCalls: [{ name: 'file_write', args: { path: 'after.txt', content: 'still here' }, id: 'f1' }] },
        { text: 'done' }
      ])
      let temp: TempApp | undefined
      try {
        temp = createTempApp(server.url, { autonomy }, { ...env })
        temp.setApprover('allow_once')
        const { outcome, events } = await runPrompt(temp, 'use the desktop')
        expect(outcome.status).toBe('completed')
        const results = completed(events)
        for (const call of DESKTOP_CALLS) {
          const result = results.find((r) => r.tool === call.name)
          expect(result, call.name).toBeDefined()
          expect(result!.isError, call.name).toBe(true)
          expect(result!.output, call.name).toMatch(
            label === 'no DISPLAY' ? /^desktop unavailable: no display \(DISPLAY is not set\)/ : /^desktop unavailable: this is a Wayland session without X/
          )
          expect(result!.output, call.name).not.toMatch(/\n\s+at /)
        }
        // Nobody is asked to approve an action on a desktop that is not there; the file write still asks.
        expect(events.filter((e) => e.type === 'approval_requested').map((e) => (e as { tool: string }).tool)).toEqual(autonomy === 'full' ? [] : ['file_write'])
        const write = results.find((r) => r.tool === 'file_write')
        expect(write?.isError).toBe(false)
        expect(temp.app.desktop.controlling()).toBeNull()
      } finally {
        await temp?.dispose()
        await server.close()
      }
    })
  }

  it('the CLI prints one line without a stack trace and exits 1', () => {
    const bin = path.resolve(__dirname, '../../bin/deskclaw.js')
    const env = { ...process.env }
    delete env.DISPLAY
    delete env.WAYLAND_DISPLAY
    for (const args of [['desktop', 'screenshot', '-o', '/tmp/never.png'], ['desktop', 'windows', '--json']]) {
      const result = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', timeout: 30_000 })
      expect(result.status, args.join(' ')).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toBe('deskclaw: desktop unavailable: no display (DISPLAY is not set); run DeskClaw inside a desktop session, or point DISPLAY at an X server (e.g. Xvfb)\n')
    }
    const usage = spawnSync(process.execPath, [bin, 'desktop', 'click'], { env, encoding: 'utf8', timeout: 30_000 })
    expect(usage.status).toBe(2)
    expect(usage.stderr).toMatch(/^deskclaw: unknown desktop subcommand "click"/)
  })
})
