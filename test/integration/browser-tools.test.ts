/**
 * The browser tools against Debian's Chromium and a site on loopback (docs/tools.md, "Browser"):
 * open, fill a form by its labels, submit, read, screenshot; the questions for a new site, a
 * password and a form; the password never reaches the SQLite file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
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
    expect(read.output).toMatch(/^#+ Signed in as alice$/m)
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

  it('asks once per site: the same site again runs, a link to another site asks, a denied site is not opened', async () => {
    const other = await site()
    const web = await site({ otherSite: `${other.url}/` })
    const temp = await apps.setup(
      [
        call('browser_open', { url: `${web.url}/` }),
        call('browser_open', { url: `${web.url}/again` }),
        call('browser_click', { target: { role: 'link', name: 'Another site' } }),
        call('browser_history', { direction: 'back' }),
        call('browser_open', { url: 'http://127.0.0.1:9/' }),
        // A known site that redirects to a new one: asked about, denied, not reached.
        call('browser_open', { url: `${web.url}/to?url=${encodeURIComponent('http://127.0.0.1:7/')}` }),
        call('browser_open', { url: 'file:///etc/passwd' }),
        { text: 'Done.' }
      ],
      { browserPath: chromiumPath }
    )
    const answers = ['allow_once', 'allow_once', 'deny', 'deny'] as const
    let asked = 0
    temp.app.approvals.attachFrontDoor('test')
    temp.app.events.subscribe((event) => {
      if (event.kind === 'agent' && event.event.type === 'approval_requested') {
        temp.app.approvals.respond(event.event.approvalId, answers[asked++] ?? 'deny', { bindingHash: event.event.bindingHash })
      }
    })
    const { events } = await runPrompt(temp, 'browse')
    // The first site, the other site (by its link); the unknown port is asked about and denied.
    expect(questions(events).map((question) => question.preview.fields[0]!.value)).toEqual([
      `${web.url}/`,
      `${other.url}/`,
      'http://127.0.0.1:9/',
      'http://127.0.0.1:7/'
    ])
    const opens = completed(events, 'browser_open')
    expect(opens.map((open) => open.isError)).toEqual([false, false, true, true, true])
    expect(opens[2]!.output).toContain('did not allow')
    expect(opens[3]!.output).toContain('Blocked a navigation to http://127.0.0.1:7/')
    // Refused by the tool, or before it by the URL guardian (docs/risk.md).
    expect(['result.badUrl', 'toolRun.deniedByPolicy']).toContain(opens[4]!.display?.key)
    expect(completed(events, 'browser_click')[0]!.output).toContain(`Now at ${other.url}/`)
    expect(completed(events, 'browser_history')[0]!.output).toContain(`Now at ${web.url}/again`)
  })

  it('saves an allowed download into the workspace, and refuses a password given as plain text', async () => {
    const web = await site()
    const temp = await apps.setup(
      [
        call('browser_open', { url: `${web.url}/` }),
        call('browser_type', { target: { label: 'Password' }, text: PASSWORD }),
        call('browser_click', { target: { role: 'link', name: 'Download the report' } }),
        { text: 'Done.' }
      ],
      { browserPath: chromiumPath }
    )
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'get the report')
    const typed = completed(events, 'browser_type')[0]!
    expect(typed.isError).toBe(true)
    expect(typed.display?.key).toBe('result.passwordAsText')
    expect(questions(events).map((question) => question.preview.title.key)).toEqual(['askSite', 'askDownload'])
    expect(completed(events, 'browser_click')[0]!.output).toContain('Download saved: downloads/report.csv')
    expect(readFileSync(join(temp.workspace, 'downloads', 'report.csv'), 'utf8')).toBe('a,b\n1,2\n')
    // Its target names a password, so even the text is hidden from the store.
    await temp.app.close()
    expect(storeBytes(temp.dataDir).includes(PASSWORD)).toBe(false)
  })

  it('readonly autonomy denies acting in the browser; deleting the conversation closes its browser and removes its profile', async () => {
    const web = await site()
    const temp = await apps.setup([call('browser_open', { url: `${web.url}/` }), { text: 'Done.' }, call('browser_snapshot', {}), { text: 'Done.' }], { browserPath: chromiumPath })
    temp.app.updateSettings({ autonomy: 'readonly' })
    const denied = await runPrompt(temp, 'open it')
    expect(completed(denied.events, 'browser_open')[0]!.status).toBe('denied')

    const { conversationId, events } = await runPrompt(temp, 'look')
    expect(completed(events, 'browser_snapshot')[0]!.isError).toBe(false)
    const profile = temp.app.browser.profileFolder(conversationId)
    expect(existsSync(profile)).toBe(true)
    expect(await temp.app.browser.existing(conversationId)).not.toBeNull()
    await temp.app.deleteConversation(conversationId)
    expect(await temp.app.browser.existing(conversationId)).toBeNull()
    expect(existsSync(profile)).toBe(false)
  })

  it('a page that leads to a domain denied in Settings is stopped without a question', async () => {
    const other = await site()
    const web = await site({ otherSite: other.url.replace('127.0.0.1', 'localhost') + '/' })
    const temp = await apps.setup(
      [call('browser_open', { url: `${web.url}/` }), call('browser_click', { target: { role: 'link', name: 'Another site' } }), { text: 'Done.' }],
      { browserPath: chromiumPath, webDomains: [{ pattern: 'localhost', decision: 'deny' }] }
    )
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'follow the link')
    expect(questions(events)).toHaveLength(1)
    const click = completed(events, 'browser_click')[0]!
    expect(click.isError).toBe(true)
    expect(click.display?.key).toBe('result.blocked')
    expect(click.output).toContain('A domain rule denies localhost')
    expect(click.output).toContain(`Now at ${web.url}/`)
  })

  it('uploads a workspace file after asking, and refuses a file outside the workspace', async () => {
    const web = await site()
    const temp = await apps.setup(
      [
        call('browser_open', { url: `${web.url}/` }),
        call('browser_upload', { target: { label: 'Attachment' }, path: '../outside.txt' }),
        call('browser_upload', { target: { label: 'Attachment' }, path: 'notes.txt' }),
        call('browser_click', { target: { role: 'button', name: 'Upload' } }),
        call('browser_read', {}),
        { text: 'Done.' }
      ],
      { browserPath: chromiumPath }
    )
    writeFileSync(join(temp.workspace, 'notes.txt'), 'hello upload\n')
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'upload my notes')
    const uploads = completed(events, 'browser_upload')
    expect(uploads[0]!.isError).toBe(true)
    expect(uploads[1]!.display?.key).toBe('result.uploaded')
    expect(questions(events).map((question) => question.tool)).toEqual(['browser_open', 'browser_upload', 'browser_click'])
    expect(completed(events, 'browser_read')[0]!.output).toContain('Received notes.txt')
    expect(completed(events, 'browser_read')[0]!.output).toContain('content intact')
  })

  it('two acting calls of one model step run one after the other in the same tab', async () => {
    const web = await site()
    const temp = await apps.setup(
      [
        call('browser_open', { url: `${web.url}/` }),
        {
          toolCalls: [
            { name: 'browser_type', args: { target: { label: 'Username' }, text: 'bob' } },
            { name: 'browser_select', args: { target: { label: 'Plan' }, options: ['Pro'] } },
            { name: 'browser_check', args: { target: { label: 'Newsletter' } } }
          ]
        },
        call('browser_snapshot', {}),
        { text: 'Done.' }
      ],
      { browserPath: chromiumPath }
    )
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'fill it in')
    for (const tool of ['browser_type', 'browser_select', 'browser_check']) expect(completed(events, tool)[0]!.isError, tool).toBe(false)
    const snapshot = completed(events, 'browser_snapshot')[0]!.output
    expect(snapshot).toMatch(/textbox "Username" (\[active\] )?\[ref=\w+\]: bob/)
    expect(snapshot).toMatch(/combobox "Plan" \[ref=\w+\]:[\s\S]*option "Pro" \[selected\]/)
    expect(snapshot).toMatch(/checkbox "Newsletter" \[checked\]/)
  })
})
