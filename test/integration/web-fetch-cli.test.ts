import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { ARTICLE, startTestSite, type TestSite } from '../helpers/web-site'
import type { AgentEvent, AgentEventOf } from '../../src/shared'

/**
 * The web tools through `deskclaw run --json` (docs/cli.md): the built command, a scripted model,
 * sites on loopback. Loopback is allowed by a user rule in rules.json (docs/risk.md, "Rules"), the
 * way a CLI user allows a host.
 */
requireBuiltCli()

let server: ScriptedServer | undefined
const sites: TestSite[] = []
afterEach(async () => {
  await server?.close()
  server = undefined
  await Promise.all(sites.splice(0).map((s) => s.close()))
})

async function runCli(args: string[], script: ScriptStep[], rules: unknown[]): Promise<{ code: number | null; stdout: string; events: AgentEvent[] }> {
  server = await startScriptedOpenAI(script)
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-web-cli-'))
  const home = join(root, 'home')
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, 'rules.json'), JSON.stringify({ rules }))
  const child = spawn(
    process.execPath,
    [cliPath, 'run', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'scripted-model', '--workspace', join(root, 'ws'), '--json', ...args],
    { env: { ...process.env, DESKCLAW_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stdout = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', () => {})
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, events: stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as AgentEvent) }
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is AgentEventOf<T> => e.type === type)
const allow = (tool: string, host = '127.0.0.1') => ({ tool, match: [host], decision: 'allow' })

describe('deskclaw run --json with the web tools', () => {
  it('web_fetch of a local page returns Markdown without a question when a rule allows the host', async () => {
    const web = await startTestSite({ '/notes': () => ({ body: ARTICLE }) })
    sites.push(web)
    const result = await runCli(['--approve', 'deny', 'read the notes'], [{ toolCalls: [{ name: 'web_fetch', args: { url: `${web.url}/notes` } }] }, { text: 'done' }], [allow('web_fetch')])
    expect(result.code).toBe(0)
    expect(of(result.events, 'approval_requested')).toHaveLength(0)
    const done = of(result.events, 'tool_call_completed')[0]!
    expect(done).toMatchObject({ tool: 'web_fetch', status: 'completed', display: { key: 'result.fetched' } })
    expect(done.output).toContain('## Readings')
    expect(of(result.events, 'risk_assessed')[0]!.assessment.findings.map((f) => f.rule)).toEqual(['rule.user'])
  })

  it('a redirect to a loopback name the rule does not allow is stopped and explained; without the rule the first hop asks', async () => {
    const inner = await startTestSite({ '/admin': () => ({ body: 'admin' }) })
    const web = await startTestSite({ '/go': () => ({ status: 302, headers: { location: `http://localhost:${inner.port}/admin` } }) })
    sites.push(inner, web)
    const stopped = await runCli(['--approve', 'deny', 'go'], [{ toolCalls: [{ name: 'web_fetch', args: { url: `${web.url}/go` } }] }, { text: 'ok' }], [allow('web_fetch')])
    const done = of(stopped.events, 'tool_call_completed')[0]!
    expect(done).toMatchObject({ status: 'error', display: { key: 'result.blocked' } })
    expect(done.output).toMatch(/Stopped before http:\/\/localhost:\d+\/admin .*a loopback address \(this machine\); only a site allowed by name/)
    expect(inner.requests).toHaveLength(0)
    const asked = await runCli(['--approve', 'deny', 'go'], [{ toolCalls: [{ name: 'web_fetch', args: { url: `${web.url}/go` } }] }, { text: 'ok' }], [])
    expect(of(asked.events, 'approval_requested')[0]!.assessment.findings.map((f) => f.rule)).toContain('url.private-address')
    expect(web.requests).toHaveLength(1)
  })

  it('http_request asks, sends the header, and --json never prints the secret', async () => {
    const secret = 'sk-live-9f8e7d6c5b4a39281706'
    const web = await startTestSite({ '/hook': (req) => ({ headers: { 'content-type': 'text/plain' }, body: `token was ${req.headers['x-api-key']}` }) })
    sites.push(web)
    const call = { name: 'http_request', args: { url: `${web.url}/hook`, method: 'POST', headers: { 'X-Api-Key': secret }, body: 'ping' } }
    const result = await runCli(['--approve', 'allow', 'call the hook'], [{ toolCalls: [call] }, { text: 'sent' }], [allow('http_request')])
    expect(of(result.events, 'approval_requested')).toHaveLength(1)
    expect(of(result.events, 'tool_call_started')[0]!.args).toMatchObject({ headers: { 'X-Api-Key': '[redacted]' } })
    expect(of(result.events, 'tool_call_completed')[0]!.output).toContain('token was [redacted]')
    expect(web.requests[0]!.headers['x-api-key']).toBe(secret)
    expect(result.stdout).not.toContain(secret)
  })
})
