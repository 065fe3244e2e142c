import { describe, expect, it } from 'vitest'
import type { AgentEvent, BridgeEvent } from '../../../src/shared'
import type { RecordedRequest, ScriptStep } from '../../fixtures/scripted-types'
import { requireSocat, startEchoModem, startPtyPair } from '../../helpers/pty-pair'
import { runPrompt, scriptedApps } from '../../helpers/temp-app'

// The agent talks to a device through a real pseudo-terminal pair (socat): open, AT, OK, close —
// and an unplug mid-session ends in a disconnected event and an error result (docs/devices.md).
const available = requireSocat()

/** The session id the last serial_open result named, from what the model was sent. */
const sessionFrom = (request: RecordedRequest): string => {
  const text = JSON.stringify(request.body.messages)
  const match = /Session: (ser_[A-Za-z0-9_-]+)/.exec(text)
  if (!match) throw new Error(`no session in ${text.slice(-400)}`)
  return match[1]!
}
const completed = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'tool_call_completed' }> => e.type === 'tool_call_completed')

describe.skipIf(!available)('serial sessions through a real pty pair', () => {
  const apps = scriptedApps()

  it('the agent opens the port, writes AT, reads the OK the device answers, and closes', async () => {
    const pty = await startPtyPair()
    const modem = await startEchoModem(pty.b)
    try {
      const script: ScriptStep[] = [
        { toolCalls: [{ name: 'serial_open', args: { port: pty.a, baud_rate: 115200 } }] },
        (request) => ({ toolCalls: [{ name: 'serial_write', args: { session: sessionFrom(request), text: 'AT' } }] }),
        (request) => ({ toolCalls: [{ name: 'serial_read', args: { session: sessionFrom(request), timeout_ms: 3000 } }] }),
        (request) => ({ toolCalls: [{ name: 'serial_close', args: { session: sessionFrom(request) } }] }),
        { text: 'The modem answered OK.' }
      ]
      const temp = await apps.setup(script)
      const asked: string[] = []
      temp.setApprover('allow_conversation')
      temp.app.events.subscribe((e) => e.kind === 'agent' && e.event.type === 'approval_requested' && asked.push(e.event.tool))
      const { outcome, events } = await runPrompt(temp, 'say AT to the modem')
      expect(outcome.status).toBe('completed')
      const results = completed(events)
      expect(results.map((r) => [r.tool, r.isError])).toEqual([
        ['serial_open', false],
        ['serial_write', false],
        ['serial_read', false],
        ['serial_close', false]
      ])
      expect(results[1]!.output).toBe(`Wrote 4 bytes to ${pty.a}: "AT\\r\\n"`)
      expect(results[2]!.output).toMatch(/\(the delimiter arrived\): "OK\\r\\n"$/)
      expect(modem.lines).toEqual(['AT'])
      // One question for the port; "allow for this conversation" covered the rest of its calls.
      expect(asked).toEqual(['serial_open'])
      expect(temp.app.devices.sessions.list()).toEqual([])
    } finally {
      await modem.close()
      await pty.dispose()
    }
  })

  it('unplugging mid-session gives a disconnected event and an error result, and frees the handle', async () => {
    const pty = await startPtyPair()
    const modem = await startEchoModem(pty.b)
    let unplugged = false
    try {
      const script: ScriptStep[] = [
        { toolCalls: [{ name: 'serial_open', args: { port: pty.a } }] },
        (request) => ({ toolCalls: [{ name: 'serial_read', args: { session: sessionFrom(request), until: 'never comes', timeout_ms: 20_000 } }] }),
        { text: 'The device went away.' }
      ]
      const temp = await apps.setup(script, { autonomy: 'full' })
      const bridgeEvents: BridgeEvent[] = []
      temp.app.events.subscribe((event) => bridgeEvents.push(event))
      temp.app.events.subscribe((event) => {
        // Unplug once the read is waiting.
        if (!unplugged && event.kind === 'agent' && event.event.type === 'tool_call_started' && event.event.tool === 'serial_read') {
          unplugged = true
          setTimeout(() => void modem.close().then(() => pty.unplug()), 200)
        }
      })
      const { events } = await runPrompt(temp, 'wait for the device')
      const read = completed(events).find((r) => r.tool === 'serial_read')!
      expect(read.isError).toBe(true)
      expect(read.output).toMatch(new RegExp(`^${pty.a.replace(/[/.]/g, '\\$&')} was disconnected`))
      expect(bridgeEvents).toContainEqual(expect.objectContaining({ kind: 'serial_closed', path: pty.a, disconnected: true }))
      expect(temp.app.devices.sessions.list()).toEqual([])
    } finally {
      await modem.close()
      await pty.dispose()
    }
  })
})
