/**
 * send-text through the app's accessibility tree (docs/desktop.md, "Sending messages" and
 * "Accessibility backends"): the chat list's items, the window title, the selected item and the
 * message entry are read exactly, the entry's text is set and read back, and only the send key goes
 * through the keyboard — once. An app with no chat list or no message entry in its tree is left to
 * the screen way before anything is touched.
 */
import { errorMessage } from '../../../shared'
import { titleMatches } from '../profiles'
import {
  describeAccessibilityFailure,
  findNodes,
  walkNodes,
  type AccessibilityBackend,
  type AccessibilityResult,
  type AccessibleNode,
  type AccessibleWindow
} from '../../desktop/accessibility'
import { normalizeForMatch, stripPatterns, type DesktopCaller, type Rect, type WindowInfo } from '../../desktop'
import type { ChatSendWay } from './chat-send-way'
import { grabFrame } from './screen-frames'
import { POLL_MS, readNewestMessage } from './tree-newest-message'
import type { ConfirmAnswer, SendStep, SendTextDeps, SendTextRequest, SendTextResult } from './send-text'
import { TaskTimeoutError } from './task-queue'
import { cropFrame } from './window-layout'
import { compilePatterns, oneLine, sleep } from './task-parts'
import { afterSendKey, NotSent, quotedList, reasonText, sendReason, type SendReason } from './send-reasons'

/** Items a chat list is made of, in the order an item is preferred for opening its chat (an open conversation's tab first). */
const CHAT_ITEM_ROLES = ['page tab', 'table cell', 'list item']
/** What is read of a window: only what is on screen, within a budget (docs/desktop.md, "Accessibility backends"). */
const WALK = { showingOnly: true, maxNodes: 2000, timeoutMs: 3000 }
/** Tabs sit near a window's top: frame → filler → tab list → page tab (Pidgin, measured). */
const TAB_DEPTH = 4
/** A change that never comes is given up this long after the profile's quiet time. */
const CHANGE_GRACE_MS = 3000
/**
 * How long the sent message may take to show in the conversation: clients queue what is sent under
 * their flood control and show it as it goes out (HexChat: up to 3.5 s after Return, measured).
 */
const SHOWN_GRACE_MS = 8000


interface AppView {
  windows: Array<{ window: AccessibleWindow; root: AccessibleNode }>
}

interface ChatView {
  window: AccessibleWindow
  root: AccessibleNode
  entry: AccessibleNode
  /** How the open chat was read: the title, or the selected item. */
  shows: string
}

export function treeChatSender(backend: AccessibilityBackend): ChatSendWay {
  return { kind: 'accessibility', send: (request, deps) => sendByTree(backend, request, deps) }
}

async function sendByTree(backend: AccessibilityBackend, request: SendTextRequest, deps: SendTextDeps): Promise<SendTextResult | null> {
  const started = Date.now()
  const steps: SendStep[] = []
  const signal = deps.deadline.signal
  const caller: DesktopCaller = { ...deps.caller, signal }
  const { platform, target, text } = request
  const extras = compilePatterns(platform.headerExtras)

  // 1. The app's windows in the tree; no chat list or no entry there → the screen way (nothing touched yet).
  let probe: Awaited<ReturnType<typeof probeApp>>
  try {
    probe = await probeApp(backend, request)
  } catch {
    probe = null // a bus that fails in an unexpected way is no tree: the screen way reads the app
  }
  if (!probe) return null
  const { main, readApp, items } = probe

  let sendPressed = false
  let draftReplaced: { entryId: string; old: string } | null = null
  const step = (s: SendStep) => {
    steps.push(s)
    deps.onStep?.(s)
  }
  const checkpoint = () => {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('stopped')
  }
  const done = (status: SendTextResult['status'], why?: SendReason): SendTextResult => ({ status, reason: why ? reasonText(why) : '', ...(why ? { why } : {}), steps, durationMs: Date.now() - started })

  try {
    await bringToFront(main.title)
    step({ step: 'activated', ok: true, detail: `"${main.title}" (accessibility tree)`, detailText: { key: 'step.activatedTree', params: { title: main.title } } })

    // 2. The chat list: items named exactly the target; several in one list is ambiguous.
    checkpoint()
    const named = items.filter(({ node }) => node.name === target)
    const near = [...new Set(items.map(({ node }) => node.name).filter((n) => n && n !== target && normalizeForMatch(n).includes(normalizeForMatch(target))))].slice(0, 8)
    const similar = near.map((n) => `"${n}"`).join(', ')
    step({
      step: 'searched',
      ok: true,
      detail: `${named.length} item(s) named "${target}" in the chat list${near.length ? `; similar: ${similar}` : ''}`,
      detailText: near.length ? { key: 'step.namedItemsSimilar', params: { count: named.length, target, similar } } : { key: 'step.namedItems', params: { count: named.length, target } }
    })
    // One chat may show as a list row and as its conversation's tab; two of one kind are two chats.
    const perKind = new Map<string, number>()
    for (const { node } of named) perKind.set(node.role, (perKind.get(node.role) ?? 0) + 1)
    if (named.length === 0) {
      const app = request.profile.name.en
      const why = near.length ? sendReason('listHasNoChatSimilar', { app, chat: target, similar: quotedList(near) }) : sendReason('listHasNoChat', { app, chat: target })
      step({ step: 'target_verified', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }
    const most = Math.max(...perKind.values())
    if (most > 1) {
      const why = sendReason('listAmbiguous', { count: most, app: request.profile.name.en, chat: target })
      step({ step: 'target_verified', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }
    const chosen = [...named].sort((a, b) => CHAT_ITEM_ROLES.indexOf(a.node.role) - CHAT_ITEM_ROLES.indexOf(b.node.role))[0]!
    step({ step: 'target_verified', ok: true, detail: `${chosen.node.role} "${chosen.node.name}"` })

    // 3. Open it: focus (a tree's cursor), select (a tab), activate (a row) — each followed by reading the tree until the chat shows.
    checkpoint()
    let chat = openChat(await readApp())
    const tried: string[] = []
    for (const action of ['focus', 'select', 'activate'] as const) {
      if (chat) break
      const result: AccessibilityResult<unknown> = await backend[action](chosen.node.id)
      tried.push(`${action}: ${result.ok ? 'done' : describeAccessibilityFailure(result)}`)
      if (!result.ok) continue
      chat = await pollFor(async () => openChat(await readApp()), platform.waits.afterOpen + CHANGE_GRACE_MS)
    }
    if (!chat) {
      const now = await readApp()
      const titles = now.windows.map((w) => `"${w.window.title}"`).join(', ')
      const why = titles ? sendReason('chatDidNotOpen', { chat: target, tried: tried.join('; '), titles }) : sendReason('chatDidNotOpenNoWindow', { chat: target, tried: tried.join('; ') })
      step({ step: 'header_verified', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }

    // 4. The header: the window title (its extras removed) or the selected item reads the name.
    step({ step: 'header_verified', ok: true, detail: chat.shows })

    // 5. The draft: read it to keep it, set the text, read it back exactly.
    checkpoint()
    const entry = chat.entry
    const old = entry.text ?? ''
    draftReplaced = { entryId: entry.id, old }
    const set = await backend.setText(entry.id, text)
    if (!set.ok) throw new NotSent(sendReason('entryNotSet', { error: describeAccessibilityFailure(set) }))
    const readBack = await readText(entry.id)
    if (readBack !== text) {
      const why = sendReason('entryReadsOther', { draft: oneLine(readBack ?? '') })
      step({ step: 'draft_pasted', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }
    const xWindow = await bringToFront(chat.window.title)
    const frame = await grabFrame(deps.desktop, xWindow?.bounds ?? chat.window.extents ?? (await deps.desktop.windows())[0]!.bounds)
    const image = await cropFrame(frame, frame.rect)
    step({ step: 'draft_pasted', ok: true, detail: `${oneLine(text)} (set and read back exactly)`, detailText: { key: 'step.setAndReadBack', params: { text: oneLine(text) } }, image })

    // 6. The person sees the app, the verified chat, the exact text and the window.
    deps.deadline.pause()
    let answer: ConfirmAnswer
    try {
      answer = await deps.confirm({ app: request.profile, target, text, image }, signal)
    } finally {
      deps.deadline.resume()
    }
    if (!answer.allowed) {
      step({ step: 'approved', ok: false, detail: answer.reason })
      throw new NotSent(sendReason('notApproved', { reason: answer.reason }))
    }
    step({ step: 'approved', ok: true, detail: '' })

    // 7. Check again (the person may have used the app meanwhile), then the send key, once.
    const again = openChat(await readApp())
    if (!again || again.window.id !== chat.window.id) throw new NotSent(sendReason('noLongerOpen', { chat: target }))
    const draftNow = await readText(entry.id)
    if (draftNow !== text) throw new NotSent(sendReason('draftChanged', { draft: oneLine(draftNow ?? '') }))
    const front = await bringToFront(chat.window.title)
    if (!front?.focused) throw new NotSent(sendReason('windowNotInFront', { title: chat.window.title }))
    const focused = await backend.focus(entry.id)
    if (!focused.ok) throw new NotSent(sendReason('entryNotFocused', { error: describeAccessibilityFailure(focused) }))
    checkpoint()
    sendPressed = true // from here on, never "not sent": the key may have reached the app
    draftReplaced = null
    const history = historyOf(again.root, entry)
    const conversationBefore = history?.text ?? null
    // Where the history is not exposed, its widget is looked at before and after: what changed is the new message.
    const widget = history ? undefined : conversationWidget(again.root, entry)
    const widgetBefore = widget ? await grabFrame(deps.desktop, widget) : undefined
    await deps.desktop.pressKeys(caller, platform.keys.send)
    step({ step: 'sent', ok: true, detail: platform.keys.send })

    // 8. The entry emptied; the history's end (where it is readable) or OCR of the newest message reads the text.
    const emptied = await pollFor(async () => ((await readText(entry.id)) === '' ? true : undefined), platform.waits.afterSend + CHANGE_GRACE_MS)
    if (!emptied) {
      const why = sendReason('entryStillFull', { draft: oneLine((await readText(entry.id)) ?? '') })
      step({ step: 'verified', ok: false, why, detail: reasonText(why) })
      return done('unknown', why)
    }
    if (history) {
      const ends = await pollFor(async () => {
        const now = await readText(history.id)
        return now !== undefined && now !== conversationBefore && now.trimEnd().endsWith(text) ? now : undefined
      }, platform.waits.afterSend + SHOWN_GRACE_MS)
      if (ends) {
        step({ step: 'verified', ok: true, detail: `the conversation ends with the text` })
        return done('sent')
      }
      const tail = oneLine(((await readText(history.id)) ?? '').slice(-120))
      step({ step: 'verified', ok: false, detail: `the conversation ends "${tail}"` })
      return done('unknown', sendReason('conversationEnds', { tail }))
    }
    const newest = widgetBefore ? await readNewestMessage(deps.desktop, deps.ocr, widgetBefore, text, platform.waits.afterSend + SHOWN_GRACE_MS, signal) : { reads: false, reading: '(no conversation widget in the tree)' }
    if (newest.reads) {
      step({ step: 'verified', ok: true, detail: oneLine(newest.reading), ...(newest.image ? { image: newest.image } : {}) })
      return done('sent')
    }
    step({ step: 'verified', ok: false, detail: `the newest message reads "${oneLine(newest.reading)}"`, ...(newest.image ? { image: newest.image } : {}) })
    return done('unknown', sendReason('newestDiffersEntryEmptied', { newest: oneLine(newest.reading) }))
  } catch (error) {
    const why = describeFailure(error)
    if (sendPressed) return done('unknown', afterSendKey(why))
    await putDraftBack()
    return done('not_sent', why)
  }

  /** The chat named `target` when it is the open one: its window's title or selected item reads the name, with the message entry. */
  function openChat(view: AppView): ChatView | undefined {
    for (const { window, root } of view.windows) {
      const entry = messageEntries(root).sort((a, b) => bottom(b) - bottom(a))[0]
      if (!entry) continue
      const title = stripPatterns(window.title.trim(), extras).trim()
      if (title === target) return { window, root, entry, shows: `the window title "${window.title}"` }
      const itemNames = new Set(findNodes(root, { roles: CHAT_ITEM_ROLES }).map((n) => n.name))
      // A title naming another chat outweighs a selected row (the list may lag behind the switch).
      if (itemNames.has(title)) continue
      const selected = findNodes(root, { roles: CHAT_ITEM_ROLES, states: ['selected', 'showing'] })
      if (selected.length === 1 && selected[0]!.name === target) return { window, root, entry, shows: `the selected ${selected[0]!.role} "${target}"` }
    }
    return undefined
  }

  async function readText(id: string): Promise<string | undefined> {
    const node = await backend.node(id)
    return node.ok ? node.value.text : undefined
  }

  async function pollFor<T>(read: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      checkpoint()
      const got = await read()
      if (got !== undefined) return got
      if (Date.now() > deadline) return undefined
      await sleep(POLL_MS, signal)
    }
  }

  /** The app's X window with this title, in front (the send key goes to the focused window). */
  async function bringToFront(title: string): Promise<WindowInfo | undefined> {
    const candidates = (await deps.desktop.windows()).filter((w) => w.title === title).sort((a, b) => area(b.bounds) - area(a.bounds))
    const window = candidates[0]
    if (!window) return undefined
    if (window.focused) return window
    try {
      await deps.desktop.focus(caller, window)
    } catch {
      return window
    }
    return pollFor(async () => (await deps.desktop.windows()).find((w) => w.id === window.id && w.focused), platform.waits.afterActivate + 1000)
  }

  /** Puts the replaced draft back through the tree, unless the person stopped the task (their hands may be on it). */
  async function putDraftBack(): Promise<void> {
    const stoppedByPerson = signal.aborted && !(signal.reason instanceof TaskTimeoutError)
    if (!draftReplaced || stoppedByPerson) return
    await backend.setText(draftReplaced.entryId, draftReplaced.old).catch(() => undefined)
  }

  function describeFailure(error: unknown): SendReason {
    if (signal.aborted) return signal.reason instanceof TaskTimeoutError ? sendReason('timedOut', { seconds: Math.round(signal.reason.timeoutMs / 1000) }) : sendReason('stopped')
    if (error instanceof NotSent) return error.why
    return sendReason('failed', { error: errorMessage(error) || `${request.profile.name.en}: something went wrong` })
  }
}

/** The app's windows, their trees and chat items — or null when the tree has no chat list or no message entry. */
async function probeApp(
  backend: AccessibilityBackend,
  request: SendTextRequest
): Promise<{ main: AccessibleWindow; readApp: () => Promise<AppView>; items: Array<{ window: AccessibleWindow; node: AccessibleNode }> } | null> {
  const { platform } = request
  const listed = await backend.windows({ timeoutMs: WALK.timeoutMs })
  if (!listed.ok) return null
  const main = listed.value.filter((w) => titleMatches(platform, w.title)).sort((a, b) => area(b.extents) - area(a.extents))[0]
  if (!main) return null
  const sameApp = (w: AccessibleWindow) => (main.pid !== undefined ? w.pid === main.pid : w.app === main.app)
  const readApp = async (): Promise<AppView> => {
    const now = await backend.windows({ timeoutMs: WALK.timeoutMs })
    const mine = now.ok ? now.value.filter(sameApp) : []
    const trees = await Promise.all(mine.map(async (window) => ({ window, tree: await backend.tree(window.id, WALK) })))
    return { windows: trees.flatMap(({ window, tree }) => (tree.ok ? [{ window, root: tree.value.root }] : [])) }
  }
  const first = await readApp()
  const items = await chatItems(backend, first)
  const entries = first.windows.flatMap(({ root }) => messageEntries(root))
  if (items.length === 0 || entries.length === 0) return null
  return { main, readApp, items }
}

/**
 * The chat list's items in every window of the app: those on screen, and the tabs of open
 * conversations even when scrolled out of the tab strip (Pidgin hides tabs that do not fit, and a
 * row in its Buddy List cannot bring an open chat forward: docs/desktop.md, "Accessibility backends").
 */
async function chatItems(backend: AccessibilityBackend, view: AppView): Promise<Array<{ window: AccessibleWindow; node: AccessibleNode }>> {
  const found = new Map<string, { window: AccessibleWindow; node: AccessibleNode }>()
  for (const { window, root } of view.windows) {
    for (const node of findNodes(root, { roles: CHAT_ITEM_ROLES, states: ['showing'] })) found.set(node.id, { window, node })
    const shallow = await backend.tree(window.id, { maxDepth: TAB_DEPTH, maxNodes: 400, timeoutMs: WALK.timeoutMs })
    if (!shallow.ok) continue
    for (const node of findNodes(shallow.value.root, { roles: ['page tab'] })) if (!found.has(node.id)) found.set(node.id, { window, node })
  }
  return [...found.values()]
}

/** Editable texts on screen whose text can be set: message entries (and topic boxes, which sit higher). */
function messageEntries(root: AccessibleNode): AccessibleNode[] {
  return findNodes(root, { roles: ['text', 'entry', 'paragraph'], states: ['editable', 'showing'], editableText: true })
}

/** The conversation's text, where the app exposes it: the longest read-only text in the window. */
function historyOf(root: AccessibleNode, entry: AccessibleNode): AccessibleNode | undefined {
  // A read-only text view may still offer EditableText (Pidgin's history does): the `editable` state says.
  const texts = [...walkNodes(root)].filter((n) => n.id !== entry.id && n.role === 'text' && !n.states.includes('editable') && n.text !== undefined && n.states.includes('showing'))
  return texts.sort((a, b) => (b.text?.length ?? 0) - (a.text?.length ?? 0))[0]
}

/** The conversation's widget where its text is not exposed: the largest widget with no children above the entry. */
function conversationWidget(root: AccessibleNode, entry: AccessibleNode): Rect | undefined {
  const entryTop = entry.extents?.y ?? Number.POSITIVE_INFINITY
  return [...walkNodes(root)]
    .filter((n) => n.childCount === 0 && n.extents && n.extents.y + n.extents.height <= entryTop + 2 && n.extents.width > 100 && n.extents.height > 40)
    .sort((a, b) => area(b.extents) - area(a.extents))[0]?.extents
}

function bottom(node: AccessibleNode): number {
  return node.extents ? node.extents.y + node.extents.height : 0
}

function area(rect: Rect | undefined): number {
  return rect ? rect.width * rect.height : 0
}
