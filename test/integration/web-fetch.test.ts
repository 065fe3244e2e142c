import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'
import { ARTICLE, startTestSite, type TestSite } from '../helpers/web-site'
import type { AgentEvent, AgentEventOf } from '../../src/shared'

/**
 * web_fetch and http_request end to end (docs/tools.md, docs/risk.md "Network"): a real app and
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
const toolMessage = (index: number) => JSON.stringify(server().requests[index]!.body.messages.filter((m: { role: string }) => m.role === 'tool'))
const allowLoopback = { webDomains: [{ pattern: '127.0.0.1', decision: 'allow' as const }] }

describe('web_fetch', () => {
  it('returns a local page as Markdown, without asking, when a domain rule allows the host', async () => {
    const web = await site({ '/notes': () => ({ body: ARTICLE }) })
    const app = await setup([call('web_fetch', { url: `${web.url}/notes` }), { text: 'read it' }], allowLoopback)
    app.setApprover('deny')
    const { events, outcome } = await runPrompt(app, 'read the notes')
    expect(outcome.status).toBe('completed')
    expect(of(events, 'approval_requested')).toHaveLength(0)
    const done = of(events, 'tool_call_completed')[0]!
    expect(done.status).toBe('completed')
    expect(done.output).toMatch(/^URL: http:\/\/127\.0\.0\.1:\d+\/notes/)
    expect(done.output).toContain('## Readings')
    expect(done.output).toMatch(/-\s+first: 98\.1/)
    expect(done.output).toContain(`[raw readings](${web.url}/data/readings.csv)`)
    expect(done.output).toContain('```\nboil --altitude 350\n```')
    expect(done.output).toContain('中文说明')
    expect(done.output).not.toContain('tracking')
    expect(done.display).toMatchObject({ key: 'result.fetched' })
    expect(toolMessage(1)).toContain('## Readings')
    expect(web.requests).toHaveLength(1)
  })

  it('asks before a loopback address when no rule allows it; denied, nothing is sent', async () => {
    const web = await site({ '/': () => ({ body: ARTICLE }) })
    const app = await setup([call('web_fetch', { url: `${web.url}/` }), { text: 'ok' }])
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'fetch')
    const question = of(events, 'approval_requested')[0]!
    expect(question.assessment.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['url.private-address', 'url.new-domain']))
    expect(question.assessment.findings.find((f) => f.rule === 'url.private-address')!.message).toMatch(/127\.0\.0\.1 is a loopback address/)
    expect(question.preview.fields.map((f) => f.value)).toContain('127.0.0.1')
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'denied' })
    expect(web.requests).toHaveLength(0)
  })

  it('asks before localhost too (a name that stays on this machine), and fetches once allowed', async () => {
    const web = await site({ '/': () => ({ body: '<p>hello from localhost</p>' }) })
    const app = await setup([call('web_fetch', { url: `http://localhost:${web.port}/` }), { text: 'ok' }])
    app.setApprover('allow_once')
    const { events } = await runPrompt(app, 'fetch')
    expect(of(events, 'approval_requested')[0]!.assessment.findings.map((f) => f.rule)).toContain('url.private-address')
    expect(of(events, 'tool_call_completed')[0]!.output).toContain('hello from localhost')
  })

  it('stops a redirect from an allowed host to a loopback name it does not allow, and says why', async () => {
    const inner = await site({ '/secret': () => ({ body: 'admin panel' }) })
    const web = await site({ '/go': () => ({ status: 302, headers: { location: `http://localhost:${inner.port}/secret` } }) })
    const app = await setup([call('web_fetch', { url: `${web.url}/go` }), { text: 'ok' }], allowLoopback)
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'fetch')
    expect(of(events, 'approval_requested')).toHaveLength(0)
    const done = of(events, 'tool_call_completed')[0]!
    expect(done.status).toBe('error')
    expect(done.output).toMatch(/Stopped before http:\/\/localhost:\d+\/secret \(after http:\/\/127\.0\.0\.1:\d+\/go\): localhost resolves to (127\.0\.0\.1|::1), a loopback address/)
    expect(done.display).toMatchObject({ key: 'result.blocked' })
    expect(toolMessage(1)).toMatch(/Nothing was sent there/)
    expect(inner.requests).toHaveLength(0)
  })

  it('stops a redirect to a denied domain before resolving it', async () => {
    const web = await site({ '/go': () => ({ status: 301, headers: { location: 'http://tracker.evil.test/collect?x=1' } }) })
    const app = await setup([call('web_fetch', { url: `${web.url}/go` }), { text: 'ok' }], {
      webDomains: [...allowLoopback.webDomains, { pattern: '*.evil.test', decision: 'deny' }]
    })
    const { events } = await runPrompt(app, 'fetch')
    const done = of(events, 'tool_call_completed')[0]!
    expect(done.output).toMatch(/Stopped before http:\/\/tracker\.evil\.test\/collect\?x=1 .*A domain rule denies tracker\.evil\.test \(\*\.evil\.test\)/)
  })

  it('follows redirects between allowed hosts, at most 5, and keeps to the size limit', async () => {
    const web = await site({
      '/a': () => ({ status: 301, headers: { location: '/b' } }),
      '/b': () => ({ status: 307, headers: { location: '/big' } }),
      '/big': () => ({ headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(300_000) }),
      '/loop': () => ({ status: 302, headers: { location: '/loop' } })
    })
    const app = await setup([call('web_fetch', { url: `${web.url}/a` }), call('web_fetch', { url: `${web.url}/loop` }), { text: 'ok' }], { ...allowLoopback, webMaxBytes: 100_000 })
    const { events } = await runPrompt(app, 'fetch')
    const [big, loop] = of(events, 'tool_call_completed')
    expect(big!.output).toMatch(/Redirected: .*\/a → .*\/b → .*\/big/)
    expect(big!.output).toMatch(/cut at 100000 bytes, the size limit/)
    expect(loop!.output).toMatch(/More than 5 redirects/)
  })

  it('"allow for this conversation" covers the whole site: another page runs without asking, another port asks', async () => {
    const web = await site({ '/a': () => ({ body: '<p>page a</p>' }), '/b': () => ({ body: '<p>page b</p>' }) })
    const other = await site({ '/c': () => ({ body: '<p>page c</p>' }) })
    const app = await setup([
      { toolCalls: [{ name: 'web_fetch', args: { url: `${web.url}/a` } }] },
      { toolCalls: [{ name: 'web_fetch', args: { url: `${web.url}/b?x=1` } }] },
      { toolCalls: [{ name: 'web_fetch', args: { url: `${other.url}/c` } }] },
      { text: 'ok' }
    ])
    app.setApprover('allow_conversation')
    const { events } = await runPrompt(app, 'read three pages')
    expect(of(events, 'approval_requested').map((e) => e.preview.fields[0]!.value)).toEqual([`${web.url}/a`, `${other.url}/c`])
    expect(of(events, 'risk_assessed').map((e) => e.source)).toEqual(['policy', 'conversation_grant', 'policy'])
    expect(of(events, 'tool_call_completed').map((e) => e.output.split('\n').at(-1))).toEqual(['page a', 'page b', 'page c'])
  })

  it('decompresses gzip within the limit and decodes the charset the response names', async () => {
    const gbk = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xc4, 0xda, 0xc8, 0xdd]) // 中文内容 in GBK
    const web = await site({ '/gbk': () => ({ headers: { 'content-type': 'text/plain; charset=gbk', 'content-encoding': 'gzip' }, body: gzipSync(gbk) }) })
    const app = await setup([call('web_fetch', { url: `${web.url}/gbk` }), { text: 'ok' }], allowLoopback)
    const { events } = await runPrompt(app, 'fetch')
    expect(of(events, 'tool_call_completed')[0]!.output).toMatch(/\n中文内容$/)
  })

  it('gives up after the time limit', async () => {
    const web = await site({ '/': () => ({ body: 'never' }) })
    const slow = await startTestSite({})
    await slow.close()
    // A listener that accepts and never answers.
    const { createServer } = await import('node:net')
    const hang = createServer(() => {})
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve))
    const port = (hang.address() as { port: number }).port
    const app = await setup([call('web_fetch', { url: `http://127.0.0.1:${port}/` }), { text: 'ok' }], { ...allowLoopback, webTimeoutSec: 1 })
    const started = Date.now()
    const { events } = await runPrompt(app, 'fetch')
    hang.close()
    expect(of(events, 'tool_call_completed')[0]!.output).toMatch(/No complete answer from .* within 1 s/)
    expect(Date.now() - started).toBeLessThan(8000)
    expect(web.requests).toHaveLength(0)
  })
})
