import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LEARN_STAGES, LearnViewSchema, type LearnAction } from '../../../src/shared/bridge/desktop-learn'
import { ChatAppProfileSchema, loadChatApps, titleMatches } from '../../../src/main/chat-apps/profiles'
import { keyNameTable } from '../../../src/main/desktop/keys'
import { stripPatterns } from '../../../src/main/desktop/ocr'
import {
  checkKey,
  initialLearnState,
  orderProblem,
  profileFrom,
  reduceLearn,
  suggestId,
  windowMatch,
  writeProfile,
  type LearnEvent,
  type LearnState
} from '../../../src/main/chat-apps/learn'

// The wizard that teaches DeskClaw a new app (docs/desktop.md, "Teach DeskClaw a new app"): its
// state machine without effects, and the profile it saves.

const window = { title: 'dc @ Net / #ops - HexChat', app: 'Hexchat' }
const findings = { via: 'accessibility' as const, elements: [], ...windowMatch(window.title, '#ops')! }
const passed = { target: '#ops', passed: true, steps: [], reason: '' }
const events: LearnEvent[] = [
  { kind: 'window', window },
  { kind: 'keys', keys: { search: 'ctrl+f', send: 'enter' } },
  { kind: 'chat', chat: '#ops', findings },
  { kind: 'dry_run', report: passed }
]
const kinds: Array<LearnAction['kind']> = ['window', 'keys', 'chat', 'dry_run', 'save']

describe('the learn flow', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('allows each action at its stage and later ones (going back), never earlier; nothing after saving', () => {
    let state: LearnState = initialLearnState()
    for (let i = 0; i <= events.length; i++) {
      for (const [k, kind] of kinds.entries()) {
        const refused = orderProblem(state, kind)
        if (k <= i) expect(refused, `${kind} at ${state.stage}`).toBeNull()
        else expect(refused).toMatchObject({ code: 'out_of_order', params: { action: kind, stage: state.stage } })
      }
      if (i < events.length) state = reduceLearn(state, events[i]!)
    }
    expect(state.stage).toBe('save')
    state = reduceLearn(state, { kind: 'save', saved: { id: 'x', file: '/x.json' } })
    expect(state.stage).toBe('saved')
    for (const kind of kinds) expect(orderProblem(state, kind)?.code).toBe('out_of_order')
  })

  it('moves one stage per answer; going back drops every later answer; a failed dry run stays', () => {
    let state: LearnState = initialLearnState()
    const seen = [state.stage]
    for (const event of events) seen.push((state = reduceLearn(state, event)).stage)
    expect(seen).toEqual(LEARN_STAGES.slice(0, 5))
    const back = reduceLearn(state, { kind: 'keys', keys: { search: 'mod+k', send: 'ctrl+enter' } })
    expect(back).toEqual({ stage: 'chat', window, keys: { search: 'mod+k', send: 'ctrl+enter' } })
    const again = reduceLearn(state, { kind: 'window', window: { title: 'Other', app: '' } })
    expect(again).toEqual({ stage: 'keys', window: { title: 'Other', app: '' } })
    const failed = reduceLearn(reduceLearn(state, events[2]!), { kind: 'dry_run', report: { ...passed, passed: false, reason: 'no chat' } })
    expect(failed.stage).toBe('dry_run')
    expect(failed.dryRun?.reason).toBe('no chat')
  })

  it('takes every key name of the table, alone and with modifiers, and refuses what is not a key', () => {
    for (const { name, modifier } of keyNameTable('linux')) {
      const combo = modifier ? `${name}+f` : name
      expect(checkKey('send', combo.toUpperCase(), 'linux'), combo).toEqual({ key: combo.toLowerCase() })
      if (!modifier) expect(checkKey('search', `ctrl + ${name}`, 'linux')).toEqual({ key: `ctrl+${name}` })
    }
    for (const bad of ['', 'ctrl+', 'enterr', 'ctrl+a+b', 'hyper+f']) {
      const result = checkKey('search', bad, 'linux')
      expect(result, bad).toMatchObject({ problem: { code: 'bad_key', params: { which: 'search', key: bad.trim() } } })
    }
  })

  it('reads the open chat out of a title: the parts around it become the title pattern and header extras', () => {
    const m = windowMatch('nick @ Net (1) / #张伟 - HexChat', '#张伟')!
    const platform = { window: { titles: m.titles, titlePattern: m.titlePattern }, headerExtras: m.headerExtras } as never
    for (const chat of ['#张伟', '#张伟伟', '#a.b(c)', '#ops']) {
      const title = `nick @ Net (1) / ${chat} - HexChat`
      expect(titleMatches(platform, title), title).toBe(true)
      expect(stripPatterns(title, m.headerExtras.map((p) => new RegExp(p, 'u'))), title).toBe(chat)
    }
    expect(titleMatches(platform, 'Buddy List')).toBe(false)
    expect(titleMatches(platform, 'nick @ Net (1) /  - HexChat')).toBe(false)
    // A title without the chat is matched exactly; one that is only the chat's name cannot tell the app.
    expect(windowMatch('Buddy List', '#ops')).toEqual({ titles: ['Buddy List'], headerExtras: [] })
    expect(windowMatch('WeChat', undefined)).toEqual({ titles: ['WeChat'], headerExtras: [] })
    expect(windowMatch('#ops', '#ops')).toBeNull()
    expect(windowMatch('#ops - Pidgin', '#ops')).toMatchObject({ titlePattern: '^.+ - Pidgin$', headerExtras: [' - Pidgin$'] })
  })

  it('saves a profile the schema accepts, that loads back as the same profile, as the user’s', () => {
    let state = initialLearnState()
    for (const event of events) state = reduceLearn(state, event)
    const made = profileFrom(state, { id: 'my-irc', name: { en: 'My IRC', 'zh-CN': '我的 IRC' } }, 'linux', ['weixin'])
    if (!('profile' in made)) throw new Error(JSON.stringify(made))
    expect(ChatAppProfileSchema.parse(made.profile)).toEqual(made.profile)
    expect(made.profile.platforms.linux).toMatchObject({ keys: { search: 'ctrl+f', send: 'enter' }, window: { titles: [], titlePattern: findings.titlePattern }, headerExtras: findings.headerExtras })
    expect(made.profile.platforms.linux?.regions).toBeUndefined()
    const dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-learn-'))
    dirs.push(dataDir)
    const file = writeProfile(dataDir, made.profile)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(made.profile)
    const loaded = loadChatApps({ dataDir, builtinDir: join(process.cwd(), 'resources', 'desktop-apps') })
    expect(loaded.problems).toEqual([])
    expect(loaded.profiles.find((p) => p.profile.id === 'my-irc')).toEqual({ profile: made.profile, source: 'user', file })
    // A screen-read app is told apart by its window class too.
    const screen = reduceLearn(reduceLearn(state, { kind: 'chat', chat: 'A', findings: { via: 'screen', elements: [], titles: ['Chat'], headerExtras: [] } }), { kind: 'dry_run', report: passed })
    const screenMade = profileFrom(screen, { id: 'screen-app', name: { en: 'S', 'zh-CN': '' } }, 'linux')
    expect(screenMade).toMatchObject({ profile: { name: { en: 'S', 'zh-CN': 'S' }, platforms: { linux: { window: { titles: ['Chat'], app: 'Hexchat' } } } } })
  })

  it('refuses an id that is not one, or is taken, and a missing name', () => {
    let state = initialLearnState()
    for (const event of events) state = reduceLearn(state, event)
    const name = { en: 'X', 'zh-CN': 'X' }
    expect(profileFrom(state, { id: 'My App', name }, 'linux')).toEqual({ problem: { code: 'bad_id', params: { id: 'My App' } } })
    expect(profileFrom(state, { id: 'weixin', name }, 'linux', ['weixin'])).toEqual({ problem: { code: 'id_taken', params: { id: 'weixin' } } })
    expect(profileFrom(state, { id: 'x', name: { en: ' ', 'zh-CN': '某' } }, 'linux')).toEqual({ problem: { code: 'bad_name', params: {} } })
    expect(suggestId('My Chat App 2!')).toBe('my-chat-app-2')
    expect(suggestId('微信')).toBe('my-chat-app')
  })

  it('every view the bridge sends parses with the contract', () => {
    const view = { sessionId: 's', stage: 'dry_run', windows: [window], keyNames: ['ctrl', 'enter'], window, findings, dryRun: { ...passed, steps: [{ step: 'activated', ok: true, detail: 'x', image: { png: 'AA==', width: 1, height: 1 } }] }, problem: { code: 'bad_key', params: { key: 'x' } } }
    expect(LearnViewSchema.parse(view)).toEqual(view)
  })
})
