import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEvent, Settings } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { openProbeWindow, type ProbeWindow } from '../helpers/probe-window'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import { heldButtons } from '../helpers/x-tools'
import { requireXServer, startDisplay, type TestDisplay } from '../helpers/xvfb'

// A run driven by a scripted model against a real display: what asks and what does not (docs/desktop.md, "What asks").
const available = requireXServer()

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Of<T> => e.type === type)

describe.skipIf(!available)('desktop tools in an agent run', () => {
  let display: TestDisplay
  let probe: ProbeWindow
  let server: ScriptedServer | undefined
  let temp: TempApp | undefined

  beforeAll(async () => {
    display = await startDisplay()
    probe = await openProbeWindow(display, { title: 'Canvas', mode: 'canvas', x: 100, y: 100, width: 600, height: 400 })
  })
  afterEach(async () => {
    await temp?.dispose()
    await server?.close()
    temp = server = undefined
  })
  afterAll(async () => {
    await probe?.close()
    await display?.stop()
  })

  const setup = async (script: ScriptStep[], overrides: Partial<Settings> = {}) => {
    server = await startScriptedOpenAI(script)
    temp = createTempApp(server.url, { imageInput: 'on', ...overrides }, display.env)
    return temp
  }

  it('supervised: the screenshot runs without asking and reaches the model; clicks ask once per conversation; each input tool asks for itself', async () => {
    const { client } = probe.ready
    const app = await setup([
      { toolCalls: [{ name: 'screenshot', args: {}, id: 's1' }] },
      { toolCalls: [{ name: 'mouse_click', args: { x: client.x + 50, y: client.y + 50 }, id: 'c1' }] },
      { toolCalls: [{ name: 'mouse_click', args: { x: client.x + 200, y: client.y + 120 }, id: 'c2' }] },
      { toolCalls: [{ name: 'key_press', args: { keys: 'esc' }, id: 'k1' }] },
      { text: 'Clicked twice.' }
    ])
    app.setApprover('allow_conversation')
    const before = probe.events.length
    const { outcome, events } = await runPrompt(app, 'click the canvas')
    expect(outcome.status).toBe('completed')

    const questions = of(events, 'approval_requested')
    expect(questions.map((q) => q.tool)).toEqual(['mouse_click', 'key_press'])
    expect(questions[0]!.preview.image?.mediaType).toBe('image/jpeg') // the last screenshot with the point marked
    const assessed = of(events, 'risk_assessed').map((e) => [e.tool, e.action, e.source])
    expect(assessed).toEqual([
      ['screenshot', 'allow', 'policy'],
      ['mouse_click', 'ask', 'policy'],
      ['mouse_click', 'allow', 'conversation_grant'],
      ['key_press', 'ask', 'policy']
    ])
    const presses = probe.events.slice(before).filter((e) => e.event === 'press')
    expect(presses).toMatchObject([
      { x_root: client.x + 50, y_root: client.y + 50 },
      { x_root: client.x + 200, y_root: client.y + 120 }
    ])

    // The screenshot went to the model as an image part; the timeline has it as an attachment.
    const shot = of(events, 'tool_call_completed').find((e) => e.tool === 'screenshot')
    expect(shot?.attachments?.[0]).toMatchObject({ kind: 'image', mediaType: 'image/png', width: display.width, height: display.height })
    const secondRequest = JSON.stringify(server!.requests[1]!.body)
    expect(secondRequest).toContain('data:image/png;base64,')
    // The run has ended: nobody holds the keyboard and mouse.
    expect(app.app.desktop.controlling()).toBeNull()
  })

  it('a setting makes screenshots ask; readonly denies input and still lets screenshots run', async () => {
    const asking = await setup([{ toolCalls: [{ name: 'screenshot', args: {}, id: 's1' }] }, { text: 'ok' }], { screenshotsAsk: true })
    asking.setApprover('deny', 'not now')
    const first = await runPrompt(asking, 'look')
    expect(of(first.events, 'approval_requested').map((q) => q.tool)).toEqual(['screenshot'])
    expect(of(first.events, 'tool_call_completed')[0]).toMatchObject({ status: 'denied' })
    await temp!.dispose()
    await server!.close()

    const readonly = await setup(
      [
        { toolCalls: [{ name: 'screenshot', args: {}, id: 's1' }, { name: 'mouse_click', args: { x: 300, y: 300 }, id: 'c1' }, { name: 'type_text', args: { text: 'x' }, id: 't1' }] },
        { text: 'ok' }
      ],
      { autonomy: 'readonly' }
    )
    const before = probe.events.length
    const second = await runPrompt(readonly, 'look and click')
    const results = Object.fromEntries(of(second.events, 'tool_call_completed').map((e) => [e.tool, e.status]))
    expect(results).toEqual({ screenshot: 'completed', mouse_click: 'denied', type_text: 'denied' })
    expect(of(second.events, 'approval_requested')).toHaveLength(0)
    expect(probe.events.slice(before).some((e) => e.event === 'press')).toBe(false)
  })

  it('the stop shortcut (and the banner\'s Stop) cancels the controlling run mid-drag and releases the button', async () => {
    const { client } = probe.ready
    const app = await setup(
      [{ toolCalls: [{ name: 'mouse_drag', args: { from_x: client.x + 20, from_y: client.y + 20, to_x: client.x + 500, to_y: client.y + 300, duration_ms: 20_000 } }] }, { text: 'never' }],
      { autonomy: 'full' }
    )
    const controls: Array<string | null> = []
    app.app.events.subscribe((event) => {
      if (event.kind === 'desktop_control') controls.push(event.control.holder?.runId ?? null)
    })
    const conversationId = app.app.store.createConversation().id
    const { runId } = app.app.agent.send(conversationId, 'drag slowly')
    while (!(await heldButtons(display)).includes(1)) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(app.app.desktopControl().holder?.runId).toBe(runId)

    // What the global shortcut calls in the Electron shell, and desktop.stop over the bridge.
    expect(app.app.desktop.stop('shortcut')?.runId).toBe(runId)
    const outcome = await app.app.agent.wait(runId)
    expect(outcome.status === 'completed' && outcome.stopReason).toBe('cancelled')
    expect(await heldButtons(display)).toEqual([])
    expect(controls).toEqual([runId, null])
    const drag = of(app.events, 'tool_call_completed').find((e) => e.tool === 'mouse_drag')
    expect(drag?.output).toMatch(/stopped/)
  })
})
