/**
 * The browser tools against Debian's Chromium and a site on loopback (docs/tools.md, "Browser"):
 * open, fill a form by its labels, submit, read, screenshot; the questions for a new site, a
 * password and a form; the password never reaches the SQLite file.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { chromiumPath, hasChromium } from '../helpers/browser'
import { runPrompt, scriptedApps } from '../helpers/temp-app'
import { startTestSite, type TestSite } from '../helpers/test-site'

const PASSWORD = 'Pw-7f3a9c1e-never-stored'
const apps = scriptedApps()
let sites: TestSite[] = []

afterEach(async () => {
  await Promise.all(sites.map((site) => site.close()))
  sites = []
})

async function site(options: { otherSite?: string } = {}): Promise<TestSite> {
  const started = await startTestSite(options)
  sites.push(started)
  return started
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })
const completed = (events: AgentEvent[], tool: string) =>
  events.filter((event): event is Extract<AgentEvent, { type: 'tool_call_completed' }> => event.type === 'tool_call_completed' && event.tool === tool)
const questions = (events: AgentEvent[]) =>
  events.filter((event): event is Extract<AgentEvent, { type: 'approval_requested' }> => event.type === 'approval_requested')

/** Every byte SQLite wrote: the database, its WAL and shared memory. */
function storeBytes(dataDir: string): Buffer {
  return Buffer.concat(readdirSync(dataDir).filter((name) => name.startsWith('deskclaw.db')).map((name) => readFileSync(join(dataDir, name))))
}

describe.skipIf(!hasChromium())('browser tools in Chromium', { timeout: 60_000 }, () => {
  it('opens a site, fills the form by its labels with the password as a secret, submits, reads and takes a screenshot', async () => {
    const web = await site()
    const temp = await apps.setup(
      [
        call('browser_open', { url: `${web.url}/` }),
        call('browser_type', { target: { label: 'Username' }, text: 'alice' }),
        call('browser_type', { target: { label: 'Password' }, secret: PASSWORD }),
        call('browser_select', { target: { label: 'Plan' }, options: ['Pro'] }),
        call('browser_check', { target: { label: 'Newsletter' } }),
        call('browser_click', { target: { role: 'button', name: 'Sign in' } }),
        call('browser_read', {}),
        call('browser_screenshot', {}),
        call('browser_snapshot', {}),
        { text: 'Signed in.' }
      ],
      { browserPath: chromiumPath, imageInput: 'on' }
    )
    temp.setApprover('allow_once')
    const { outcome, events } = await runPrompt(temp, 'sign in as alice')
    expect(outcome.status).toBe('completed')

    // Three questions: the new site, the password, the form.
    expect(questions(events).map((question) => question.preview.title.key)).toEqual(['askSite', 'askSecret', 'askSubmit'])
    expect(web.posts).toEqual([{ username: 'alice', password: PASSWORD, plan: 'Pro', news: 'on' }])

    const read = completed(events, 'browser_read')[0]!
    expect(read.isError).toBe(false)
    expect(read.output).toContain('Signed in as alice')
    expect(read.output).toContain('Plan: Pro; newsletter: yes')
    const shot = completed(events, 'browser_screenshot')[0]!
    expect(shot.attachments?.[0]).toMatchObject({ kind: 'image', mediaType: 'image/png', width: 1280, height: 800 })
    expect(completed(events, 'browser_snapshot')[0]!.output).toMatch(/heading "Signed in as alice" \[level=1\] \[ref=\w+\]/)
    // The screenshot went to the model as an image.
    const requests = apps.server().requests
    expect(JSON.stringify(requests[8]!.body)).toContain('data:image/png;base64,')

    // The secret: shown as •••• in the call's arguments and question; never in the store.
    const typed = events.find((event) => event.type === 'tool_call_started' && event.tool === 'browser_type' && JSON.stringify(event.args).includes('••••'))
    expect(typed).toBeDefined()
    expect(JSON.stringify(events)).not.toContain(PASSWORD)
    await temp.app.close()
    expect(storeBytes(temp.dataDir).includes(PASSWORD)).toBe(false)
    expect(storeBytes(temp.dataDir).includes('Signed in as alice')).toBe(true)
  })
})
