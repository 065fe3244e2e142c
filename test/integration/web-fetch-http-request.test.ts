import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'
import { startTestSite, type TestSite } from '../helpers/web-site'
import type { AgentEvent, AgentEventOf } from '../../src/shared'

/**
 * http_request end to end (docs/tools.md, docs/risk.md "Network"): a real app and
 * store, a scripted model, and web sites on loopback — the only addresses this machine may reach,
 * so loopback is allowed by a domain rule where a test needs it to run without asking.
 */
const { setup, server } = scriptedApps()
const sites: TestSite[] = []
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()))
})
async function site(routes: Parameters<typeof startTestSite>[0]) {
  const started = await startTestSite(routes)
  sites.push(started)
  return started
}

const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ toolCalls: [{ name, args }] })
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is AgentEventOf<T> => e.type === type)
const allowLoopback = { webDomains: [{ pattern: '127.0.0.1', decision: 'allow' as const }] }

describe('http_request', () => {
  const SECRET = 'ghp_k7Qz9vWm3Lx8Rt2Yp5Nc4Bd6'

  it('asks even for an allowed host, sends the real header, and keeps the secret out of the store, the timeline and the model history', async () => {
    const web = await site({ '/api': (req) => ({ status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ got: req.headers.authorization, body: req.body }) }) })
    const args = { url: `${web.url}/api`, method: 'POST', headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' }, body: '{"title":"hi"}' }
    const app = await setup([call('http_request', args), { text: 'posted' }, { text: 'still here' }], allowLoopback)
    app.setApprover('allow_once')
    const { events, conversationId } = await runPrompt(app, 'post it')
    const question = of(events, 'approval_requested')[0]!
    expect(question.assessment.findings.map((f) => f.rule)).toContain('tool.network_write')
    expect(JSON.stringify(question)).not.toContain(SECRET)
    expect(question.preview.fields.find((f) => f.label.key === 'headers')!.value).toContain('Authorization: Bearer [redacted]')
    expect(web.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`)
    const done = of(events, 'tool_call_completed')[0]!
    expect(done.status).toBe('completed')
    expect(done.output).toMatch(/Status: 201/)
    expect(done.output).toContain('"got":"[redacted]"')
    expect(JSON.stringify(events)).not.toContain(SECRET)
    // The next turn reads the stored history: the call's header is masked there.
    await runPrompt(app, 'and now?', conversationId)
    const history = JSON.stringify(server().requests[2]!.body.messages)
    expect(history).toContain('Bearer [redacted]')
    expect(history).not.toContain(SECRET)
    // Nothing on disk holds it: the database, its WAL, the audit file.
    for (const name of readdirSync(app.dataDir)) {
      if (!/\.(db|db-wal|jsonl|log)$|audit/.test(name)) continue
      expect(readFileSync(join(app.dataDir, name)).includes(SECRET), name).toBe(false)
    }
  })

  it('denied, nothing is sent', async () => {
    const web = await site({ '/api': () => ({ body: 'ok' }) })
    const app = await setup([call('http_request', { url: `${web.url}/api`, method: 'DELETE' }), { text: 'ok' }], allowLoopback)
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'delete')
    expect(of(events, 'approval_requested')).toHaveLength(1)
    expect(web.requests).toHaveLength(0)
  })
})
