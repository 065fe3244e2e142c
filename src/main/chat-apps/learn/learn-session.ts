/**
 * One run of the wizard that teaches DeskClaw a new chat app (docs/desktop.md, "Teach DeskClaw a new
 * app"): the effects behind learn-flow's state machine — the open windows, the app's accessibility
 * tree, the dry send (the send-text task itself, refused at its approval so the send key is never
 * pressed, which puts the old draft back), and the profile file. The CLI and the Settings wizard are
 * two front doors to this one class.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DRY_RUN_REASON, type LearnAction, type LearnElement, type LearnProblem, type LearnView } from '../../../shared/bridge/desktop-learn'
import { errorMessage } from '../../../shared'
import { findNodes, walkNodes, type AccessibilityBackend, type AccessibleNode, type AccessibleWindow } from '../../desktop/accessibility'
import { loadChatApps, readProfileFile, userProfilesDir, type ChatAppProfile } from '../profiles'
import { keyNameTable, type Operator, type OcrEngine, type WindowInfo } from '../../desktop'
import { screenChatSender, sendTextByFirstWay, TaskQueue, treeChatSender, type ChatSendWay, type SendStep } from '../send'
import {
  checkKey,
  initialLearnState,
  orderProblem,
  platformFrom,
  problem,
  profileFrom,
  reduceLearn,
  windowMatch,
  type DryRunReport,
  type LearnEvent,
  type LearnFindings,
  type LearnState
} from './learn-flow'

/** What is pasted when the user gives no text of their own. */
export const DRY_RUN_TEXT = 'DeskClaw dry run — not sent'
/** As the send-text task reads an app (chat-apps/send/tree-chat-sender.ts): the chat list's items and the message entry. */
const CHAT_ITEM_ROLES = ['page tab', 'table cell', 'list item']
const ENTRY_ROLES = ['text', 'entry', 'paragraph']
const WALK = { showingOnly: true, maxNodes: 2000, timeoutMs: 3000 }
const SEARCH_NAME = /search|find|搜索|查找/i
const DRY_RUN_TIMEOUT_MS = 60_000

export interface LearnSessionOptions {
  desktop: Operator
  /** The OS's accessibility backend; null reads the screen only. */
  accessibility: AccessibilityBackend | null
  ocr: () => OcrEngine
  /** The user's profiles go to <dataDir>/desktop-apps. */
  dataDir: string
  builtinDir?: string
  platform?: NodeJS.Platform
}

export class LearnSession {
  private state: LearnState = initialLearnState()
  private windowList: WindowInfo[] = []
  /** The chosen window's id, to read its title again after the dry send opened a chat. */
  private windowId: string | undefined
  private lastProblem: LearnProblem | undefined
  private readonly queue = new TaskQueue()
  /** Closing the wizard stops a dry send in progress (as Stop does: the draft is left as it is). */
  private readonly closed = new AbortController()

  constructor(
    readonly id: string,
    private readonly options: LearnSessionOptions
  ) {}

  get current(): Readonly<LearnState> {
    return this.state
  }

  close(): void {
    this.closed.abort(new Error('the wizard was closed'))
  }

  /** The open windows with a title, read again. */
  async refreshWindows(): Promise<LearnProblem | null> {
    try {
      this.windowList = (await this.options.desktop.windows()).filter((w) => w.title.trim() !== '' && w.bounds.width > 0 && w.bounds.height > 0)
      return null
    } catch (error) {
      return unavailable(error)
    }
  }

  /** One step; a refused step leaves the state as it was and says why. */
  async act(action: LearnAction, signal: AbortSignal = this.closed.signal): Promise<LearnProblem | null> {
    const refused = orderProblem(this.state, action.kind) ?? (await this.run(action, signal))
    this.lastProblem = refused ?? undefined
    return refused
  }

  private async run(action: LearnAction, signal?: AbortSignal): Promise<LearnProblem | null> {
    const result = await this.effects(action, signal)
    if ('code' in result) return result
    this.state = reduceLearn(this.state, result)
    return null
  }

  private async effects(action: LearnAction, signal?: AbortSignal): Promise<LearnEvent | LearnProblem> {
    switch (action.kind) {
      case 'window': {
        const failed = await this.refreshWindows()
        if (failed) return failed
        const window = this.windowList.find((w) => w.title === action.title)
        if (!window) return problem('no_window', { title: action.title })
        this.windowId = window.id
        return { kind: 'window', window: { title: window.title, app: window.app } }
      }
      case 'keys': {
        const search = checkKey('search', action.search, this.platform)
        if ('problem' in search) return search.problem
        const send = checkKey('send', action.send, this.platform)
        if ('problem' in send) return send.problem
        return { kind: 'keys', keys: { search: search.key, send: send.key } }
      }
      case 'chat': {
        const chat = action.name.trim()
        if (!chat) return problem('empty_chat')
        const found = await this.inspect(chat)
        return 'code' in found ? found : { kind: 'chat', chat, findings: found }
      }
      case 'dry_run':
        return this.dryRun(action.target.trim(), action.text.trim() === '' ? DRY_RUN_TEXT : action.text, signal)
      case 'save': {
        const existing = loadChatApps({ dataDir: this.options.dataDir, builtinDir: this.options.builtinDir }).profiles.map((p) => p.profile.id)
        const made = profileFrom(this.state, action, this.platform, existing)
        if ('problem' in made) return made.problem
        try {
          const file = writeProfile(this.options.dataDir, made.profile)
          return { kind: 'save', saved: { id: made.profile.id, file } }
        } catch (error) {
          return problem('save_failed', { detail: errorMessage(error) })
        }
      }
    }
  }

  private get platform(): NodeJS.Platform {
    return this.options.platform ?? process.platform
  }

  /** The profile the answers add up to so far (the dry send runs with it, under a placeholder id). */
  draftProfile(id = 'learning', name = { en: 'the app being learned', 'zh-CN': '正在学习的应用' }): ChatAppProfile {
    return { id, name, platforms: { [this.platform]: platformFrom(this.state) } }
  }

  /**
   * What the app's accessibility tree shows of the chat: its item in the chat list, similar names,
   * the message entry, a search field — or that there is no usable tree (the dry send reads the
   * screen). Also how its window is found: the title, with the open chat's name taken out.
   */
  private async inspect(chat: string): Promise<LearnFindings | LearnProblem> {
    const title = this.state.window!.title
    const read = await this.readApp(title).catch(() => null)
    if (!read) {
      const match = windowMatch(title, undefined)!
      return { via: 'screen', elements: [], ...match }
    }
    const named = read.items.filter((i) => i.node.name === chat)
    const perRole = new Map<string, number>()
    for (const { node } of named) perRole.set(node.role, (perRole.get(node.role) ?? 0) + 1)
    const similar = [...new Set(read.items.map((i) => i.node.name).filter((n) => n && n !== chat && (n.includes(chat) || chat.includes(n))))].slice(0, 6)
    if (named.length === 0) return problem('chat_not_found', { chat, similar: similar.join(', ') })
    if (Math.max(...perRole.values()) > 1) return problem('chat_ambiguous', { chat })
    const elements: LearnElement[] = [
      ...named.map(({ window, node }) => ({ kind: 'chat_item' as const, role: node.role, name: node.name, window: window.title })),
      ...similar.map((name) => ({ kind: 'similar_item' as const, role: read.items.find((i) => i.node.name === name)!.node.role, name, window: read.items.find((i) => i.node.name === name)!.window.title })),
      ...read.searchFields.map(({ window, node }) => ({ kind: 'search_field' as const, role: node.role, name: node.name, window: window.title })),
      ...read.entries.map(({ window, node }) => ({ kind: 'entry' as const, role: node.role, name: node.name || (node.text ?? ''), window: window.title })),
      ...read.conversations.map(({ window, node }) => ({ kind: 'conversation' as const, role: node.role, name: (node.text ?? '').slice(-80), window: window.title }))
    ]
    const match = windowMatch(title, openChatIn(title, read.titleItems))
    if (!match) return problem('title_is_chat', { title })
    return { via: 'accessibility', elements, ...match }
  }

  /** The chosen window and the other windows of its process, as the tree way reads them; null when they hold no chat list or no entry. */
  private async readApp(title: string) {
    const backend = this.options.accessibility
    if (!backend) return null
    const listed = await backend.windows({ timeoutMs: WALK.timeoutMs })
    if (!listed.ok) return null
    const main = listed.value.find((w) => w.title === title)
    if (!main) return null
    const mine = listed.value.filter((w) => (main.pid !== undefined ? w.pid === main.pid : w.app === main.app))
    const items: Array<{ window: AccessibleWindow; node: AccessibleNode }> = []
    const entries: Array<{ window: AccessibleWindow; node: AccessibleNode }> = []
    const searchFields: Array<{ window: AccessibleWindow; node: AccessibleNode }> = []
    const conversations: Array<{ window: AccessibleWindow; node: AccessibleNode }> = []
    let titleItems: AccessibleNode[] = []
    for (const window of mine) {
      const tree = await backend.tree(window.id, WALK)
      if (!tree.ok) continue
      const root = tree.value.root
      const own = findNodes(root, { roles: CHAT_ITEM_ROLES, states: ['showing'] })
      items.push(...own.map((node) => ({ window, node })))
      if (window.id === main.id) titleItems = own
      const editable = findNodes(root, { roles: ENTRY_ROLES, states: ['editable', 'showing'], editableText: true })
      // The message entry is the lowest editable text (a topic box sits above it); a search box is named so.
      const lowest = [...editable].sort((a, b) => bottom(b) - bottom(a))[0]
      if (lowest) entries.push({ window, node: lowest })
      for (const node of editable) if (node !== lowest && SEARCH_NAME.test(node.name)) searchFields.push({ window, node })
      const history = [...walkNodes(root)].filter((n) => n.role === 'text' && !n.states.includes('editable') && n.states.includes('showing') && (n.text ?? '') !== '')
      const longest = history.sort((a, b) => (b.text?.length ?? 0) - (a.text?.length ?? 0))[0]
      if (longest) conversations.push({ window, node: longest })
    }
    if (items.length === 0 || entries.length === 0) return null
    return { items, entries, searchFields, conversations, titleItems }
  }

  /**
   * The send-text task with the profile learned so far, into the user's chat, refused at its
   * approval: it searches, opens, verifies the header, sets the draft and reads it back, then puts
   * the old draft back. It passes when it got as far as the approval.
   */
  private async dryRun(target: string, text: string, signal?: AbortSignal): Promise<LearnEvent | LearnProblem> {
    if (!target) return problem('empty_chat')
    const profile = this.draftProfile()
    const platform = profile.platforms[this.platform as 'linux']!
    const ways: ChatSendWay[] = this.options.accessibility ? [treeChatSender(this.options.accessibility), screenChatSender] : [screenChatSender]
    const runId = `learn-${this.id}`
    let result
    try {
      result = await this.queue.runAndWait(
        (deadline) =>
          sendTextByFirstWay(ways, { profile, platform, target, text }, {
            desktop: this.options.desktop,
            ocr: this.options.ocr(),
            caller: { runId, conversationId: 'learn' },
            deadline,
            confirm: async () => ({ allowed: false, reason: DRY_RUN_REASON }),
          }),
        { timeoutMs: DRY_RUN_TIMEOUT_MS, signal }
      )
    } catch (error) {
      return unavailable(error)
    } finally {
      // The dry send held the keyboard and mouse as its own run: they are free again for sends and the agent.
      this.options.desktop.runEnded(runId)
    }
    const reached = (name: SendStep['step']) => result.steps.some((s) => s.step === name && s.ok)
    const refusedAtApproval = result.steps.some((s) => s.step === 'approved' && !s.ok && s.detail === DRY_RUN_REASON)
    const passed = result.status === 'not_sent' && reached('header_verified') && reached('draft_pasted') && refusedAtApproval
    const report: DryRunReport = {
      target,
      passed,
      steps: result.steps.map((s) => ({ step: s.step, ok: s.ok, detail: s.detail, ...(s.image ? { image: s.image } : {}) })),
      reason: passed ? '' : result.reason
    }
    if (passed) await this.learnTitleFrom(target)
    return { kind: 'dry_run', report }
  }

  /** The window's title with the target chat open says best which part of it is the chat's name. */
  private async learnTitleFrom(target: string): Promise<void> {
    const findings = this.state.findings
    if (!findings || findings.via !== 'accessibility') return
    const now = (await this.options.desktop.windows().catch(() => [])).find((w) => w.id === this.windowId)
    if (!now || !now.title.includes(target)) return
    const match = windowMatch(now.title, target)
    if (match) this.state = { ...this.state, findings: { ...findings, ...match } }
  }

  view(): LearnView {
    const { state } = this
    const base64 = (png: Uint8Array) => Buffer.from(png).toString('base64')
    let profile: string | undefined
    if (state.stage === 'save' || state.stage === 'saved') profile = JSON.stringify(this.draftProfile(state.saved?.id ?? 'my-app'), null, 2)
    return {
      sessionId: this.id,
      stage: state.stage,
      windows: this.windowList.map((w) => ({ title: w.title, app: w.app })),
      keyNames: keyNameTable(this.platform)
        .sort((a, b) => Number(b.modifier) - Number(a.modifier))
        .map((k) => k.name),
      ...(state.window ? { window: state.window } : {}),
      ...(state.keys ? { keys: state.keys } : {}),
      ...(state.chat !== undefined ? { chat: state.chat } : {}),
      ...(state.findings ? { findings: state.findings } : {}),
      ...(state.dryRun
        ? {
            dryRun: {
              ...state.dryRun,
              steps: state.dryRun.steps.map((s) => ({ step: s.step, ok: s.ok, detail: s.detail, ...(s.image ? { image: { png: base64(s.image.png), width: s.image.width, height: s.image.height } } : {}) }))
            }
          }
        : {}),
      ...(profile ? { profile } : {}),
      ...(state.saved ? { saved: state.saved } : {}),
      ...(this.lastProblem ? { problem: this.lastProblem } : {})
    }
  }
}

/** The desktop's own "desktop unavailable: …" reason, without its prefix (the sentence around it says so). */
function unavailable(error: unknown): LearnProblem {
  return problem('desktop_unavailable', { detail: errorMessage(error).replace(/^desktop unavailable:\s*/, '') })
}

/**
 * The chat a title names: the selected item's name if the title holds it, else the item name that
 * ends latest in the title (an app's name follows the chat's, a network's precedes it).
 */
function openChatIn(title: string, items: AccessibleNode[]): string | undefined {
  const inTitle = items.filter((n) => n.name && title.includes(n.name))
  const selected = inTitle.filter((n) => n.states.includes('selected'))
  const pool = selected.length > 0 ? selected : inTitle
  return pool.sort((a, b) => title.lastIndexOf(b.name) + b.name.length - (title.lastIndexOf(a.name) + a.name.length) || b.name.length - a.name.length)[0]?.name
}

/** Writes the profile to the user's folder and reads it back as any profile file is read: what was saved is what loads. */
export function writeProfile(dataDir: string, profile: ChatAppProfile): string {
  const dir = userProfilesDir(dataDir)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${profile.id}.json`)
  writeFileSync(file, JSON.stringify(profile, null, 2) + '\n')
  readProfileFile(file)
  return file
}

function bottom(node: AccessibleNode): number {
  return node.extents ? node.extents.y + node.extents.height : 0
}
