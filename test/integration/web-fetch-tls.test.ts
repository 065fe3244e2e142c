import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { ARTICLE } from '../helpers/web-site'
import type { AgentEvent, AgentEventOf } from '../../src/shared'

/**
 * https through the pinned connection (docs/tools.md, "Web fetch and HTTP requests"): the socket
 * goes to the address the guardian checked while TLS still names the host, so the server's
 * certificate for `localhost` is verified against the name — by `deskclaw run --json`, which
 * trusts a test CA through NODE_EXTRA_CA_CERTS. A certificate for another name is refused.
 */
requireBuiltCli()

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe.skipIf(!hasOpenssl())('web_fetch over https', () => {
  let dir: string
  let server: Server
  let port: number
  let model: ScriptedServer | undefined

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskclaw-tls-'))
    // A certificate for the name localhost only (not for 127.0.0.1), self-signed: the test's own CA.
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')
    ], { stdio: 'ignore' })
    server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(req.url === '/notes' ? ARTICLE : `<p>sni=${(req.socket as unknown as { servername?: string }).servername}</p>`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })

  afterAll(async () => {
    await model?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  async function fetchThroughCli(url: string): Promise<AgentEvent[]> {
    await model?.close()
    model = await startScriptedOpenAI([{ toolCalls: [{ name: 'web_fetch', args: { url } }] }, { text: 'ok' }])
    const home = join(dir, `home-${Math.random().toString(36).slice(2)}`)
    mkdirSync(home)
    writeFileSync(join(home, 'rules.json'), JSON.stringify({ rules: [{ tool: 'web_fetch', match: [new URL(url).hostname.replace(/^\[|\]$/g, '')], decision: 'allow' }] }))
    const child = spawn(
      process.execPath,
      [cliPath, 'run', '--provider', 'openai-compatible', '--base-url', model.url, '--model', 'scripted-model', '--workspace', join(dir, 'ws'), '--json', '--approve', 'deny', 'fetch'],
      { env: { ...process.env, DESKCLAW_HOME: home, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }, stdio: ['ignore', 'pipe', 'ignore'] }
    )
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    await new Promise((resolve) => child.on('close', resolve))
    return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as AgentEvent)
  }
  const completed = (events: AgentEvent[]) => events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')[0]!

  it('fetches https://localhost with the certificate checked against the name, the server told the name by SNI', async () => {
    const notes = completed(await fetchThroughCli(`https://localhost:${port}/notes`))
    expect(notes).toMatchObject({ status: 'completed', display: { key: 'result.fetched' } })
    expect(notes.output).toContain('## Readings')
    const sni = completed(await fetchThroughCli(`https://localhost:${port}/sni`))
    expect(sni.output).toContain('sni=localhost')
  })

  it('refuses a certificate that does not name the host', async () => {
    // The same server, reached by its address, which the certificate does not carry.
    const wrong = completed(await fetchThroughCli(`https://127.0.0.1:${port}/notes`))
    expect(wrong).toMatchObject({ status: 'error', display: { key: 'result.failed' } })
    expect(wrong.output).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list|altnames/)
  })
})
