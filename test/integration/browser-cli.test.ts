/**
 * The browser tools through `deskclaw run --json` (docs/tools.md, "Browser"): the scripted model
 * signs in on a loopback site in Debian's Chromium; the NDJSON shows the three questions and the
 * result, and neither it nor the SQLite files hold the password.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { findBrowser } from '../../src/main/browser'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { requireCapability } from '../helpers/capability'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { startTestSite, type TestSite } from '../helpers/test-site'

requireBuiltCli()

const PASSWORD = 'Cli-pw-52d1b7e0-never-stored'
const found = findBrowser('')
const hasBrowser = requireCapability('An installed Chromium, Chrome or Edge', found.ok, 'apt-get install chromium')

let server: ScriptedServer | undefined
let web: TestSite | undefined
let root: string | undefined

afterEach(async () => {
  await server?.close()
  await web?.close()
  if (root) rmSync(root, { recursive: true, force: true })
  server = web = root = undefined
})

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })

describe.skipIf(!hasBrowser)('deskclaw run --json with the browser tools', { timeout: 90_000 }, () => {
  it('opens, fills by labels, submits and reads; questions in the NDJSON; the password in neither it nor the store', async () => {
    web = await startTestSite()
    server = await startScriptedOpenAI([
      call('browser_open', { url: `${web.url}/` }),
      call('browser_type', { target: { label: 'Username' }, text: 'alice' }),
      call('browser_type', { target: { label: 'Password' }, secret: PASSWORD, submit: true }),
      call('browser_read', {}),
      call('browser_screenshot', {}),
      { text: 'Signed in.' }
    ])
    root = mkdtempSync(join(tmpdir(), 'deskclaw-browser-cli-'))
    const home = join(root, 'home')
    const args = ['run', '--json', '--approve', 'allow', '--provider', 'openai-compatible', '--base-url', server.url]
    args.push('--model', 'scripted-model', '--workspace', join(root, 'ws'), 'sign in as alice')
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, DESKCLAW_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code, stderr).toBe(0)
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)

    const asked = events.flatMap((event) => (event.type === 'approval_requested' ? [event.preview.title.key] : []))
    expect(asked).toEqual(['askSite', 'askSecret', 'askSubmit'])
    expect(web.posts).toEqual([{ username: 'alice', password: PASSWORD, plan: 'Free' }])
    const read = events.find((event) => event.type === 'tool_call_completed' && event.tool === 'browser_read')
    expect(read?.type === 'tool_call_completed' && read.output).toContain('Signed in as alice')
    const shot = events.find((event) => event.type === 'tool_call_completed' && event.tool === 'browser_screenshot')
    expect(shot?.type === 'tool_call_completed' && shot.attachments?.[0]?.mediaType).toBe('image/png')

    expect(stdout).not.toContain(PASSWORD)
    const store = Buffer.concat(readdirSync(home).filter((name) => name.startsWith('deskclaw.db')).map((name) => readFileSync(join(home, name))))
    expect(store.length).toBeGreaterThan(0)
    expect(store.includes(PASSWORD)).toBe(false)
  })
})
