/**
 * The send-text task (docs/desktop.md, "Sending messages"): activate the app → search the chat →
 * verify exactly one result reads the name → open it → verify the header → paste the text →
 * (approval) → press send → verify the newest message. Every check reads the screen (OCR), and
 * finds what it reads by what changed after its own action ("Finding the layout"): no pixel
 * regions. Until the send key is pressed a failure is `not_sent` (safe to try again), and what the
 * task opened or replaced is undone; after it, anything short of a verified message is `unknown`.
 * Nothing here ever presses the send key twice.
 */
import { errorMessage, type ToolText } from '../../../shared'
import { titleMatches, type AppPlatform, type ChatAppProfile } from '../profiles'
import { normalizeForMatch, sameText, similarity, stripPatterns, type ClipboardSnapshot, type DesktopCaller, type Operator, type OcrEngine, type OcrLine, type Point, type Rect, type WindowInfo } from '../../desktop'
import { readDraft, restoreDraft } from './draft-keeper'
import { changedRects, grabFrame, settleTimed, unchangedIn, waitForStill, type ScreenFrame } from './screen-frames'
import { TaskTimeoutError, type TaskDeadline } from './task-queue'
import { changedAreas, cropFrame, overlaps, panesOf, readArea, resultPanes, showsNoText, topTextArea, wholePane, type Pane } from './window-layout'
import { compilePatterns, oneLine, sleep } from './task-parts'
import { newestText, readsSentMessage, readsText } from './reads-text'
import { afterSendKey, NotSent, quotedList, reasonText, sendReason, type SendReason } from './send-reasons'

export type SendStatus = 'sent' | 'not_sent' | 'unknown'

/** The steps as the timeline shows them; `image` is the crop the step read. */
export const SEND_STEPS = ['activated', 'searched', 'target_verified', 'header_verified', 'draft_pasted', 'approved', 'sent', 'verified'] as const
export type SendStepName = (typeof SEND_STEPS)[number]

export interface SendStep {
  step: SendStepName
  ok: boolean
  detail: string
  /** A failed step's reason as a message code (its English text is `detail`). */
  why?: SendReason
  /** `detail` as a message code of the send-text tool's texts, where it has words of its own (docs/desktop.md). */
  detailText?: ToolText
  image?: { png: Uint8Array; width: number; height: number }
}

export interface SendConfirmation {
  app: ChatAppProfile
  /** The chat as the header was read. */
  target: string
  /** Exactly what will be sent (watermark included). */
  text: string
  /** The chat's header and the draft, as on screen now. */
  image: { png: Uint8Array; width: number; height: number }
}

export type ConfirmAnswer = { allowed: true } | { allowed: false; reason: string }

export interface SendTextRequest {
  profile: ChatAppProfile
  platform: AppPlatform
  target: string
  /** With the watermark already applied. */
  text: string
}

export interface SendTextDeps {
  desktop: Operator
  ocr: OcrEngine
  caller: Omit<DesktopCaller, 'signal'>
  deadline: TaskDeadline
  /** Asks the person (supervised mode), or answers at once (full autonomy, --approve allow|deny). */
  confirm(confirmation: SendConfirmation, signal: AbortSignal): Promise<ConfirmAnswer>
  onStep?(step: SendStep): void
}

export interface SendTextResult {
  status: SendStatus
  /** Why, in one line (empty for `sent`). */
  reason: string
  /** The reason as a message code with parameters (docs/desktop.md, "Sending messages"); absent for `sent`. */
  why?: SendReason
  steps: SendStep[]
  /** How long the task took, in milliseconds (the approval's wait included). */
  durationMs: number
}

/** A settle that never comes (an animation) ends this long after its quiet time. */
const SETTLE_GRACE_MS = 3_000
/**
 * Once the change an action must make has been seen, this much quiet is enough for a reading that
 * is then verified (the header, the draft, the sent message); one that does not verify is taken
 * again after the profile's full quiet time. The search's results are the exception: nothing tells
 * a complete list from a partial one, so they always get the full quiet time.
 */
const SEEN_QUIET_MS = 80
/** How long a copy of the old draft is waited for (three times the app's time to show a paste, within these): none means it was empty. */
const DRAFT_COPY_MIN_MS = 200
const DRAFT_COPY_MAX_MS = 400


export async function sendText(request: SendTextRequest, deps: SendTextDeps): Promise<SendTextResult> {
  const started = Date.now()
  const steps: SendStep[] = []
  const signal = deps.deadline.signal
  const caller: DesktopCaller = { ...deps.caller, signal }
  const { desktop, ocr } = deps
  const { platform, target } = request
  const name = request.profile.name.en
  let sendPressed = false
  let clipboard: ClipboardSnapshot | null = null
  // What the task opened or replaced, undone on every "not sent" path (docs/desktop.md, "Leaving no trace").
  let searchOpen = false
  let draftReplaced: { old: string; at: Point | null } | null = null
  /** The windows before the search (a new one is a dialog it opened). */
  let windowsBefore = new Set<string>()
  /** The window before the text was pasted into the draft. */
  let beforePaste: ScreenFrame | undefined

  const step = (s: SendStep) => {
    steps.push(s)
    deps.onStep?.(s)
  }
  const checkpoint = () => {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('stopped')
  }
  /** A frame of the app's window (set once it is found). */
  let grab: () => Promise<ScreenFrame> = () => Promise.reject(new Error('no window yet'))
  /** Waits until the window has not changed for quietMs — after it changed from `changeFrom`, if given (docs/desktop.md, "Finding the layout"). */
  const settling = (quietMs: number, changeFrom?: ScreenFrame) => ({ quietMs, timeoutMs: quietMs + SETTLE_GRACE_MS, signal, ...(changeFrom ? { changeFrom } : {}) })
  const settle = (quietMs: number, changeFrom?: ScreenFrame) => waitForStill(grab, settling(quietMs, changeFrom))

  try {
    // 1. The app's window, in front (the clipboard is saved meanwhile: it is put back at the end).
    const saving = desktop.saveClipboard()
    saving.catch(() => {})
    const window = await activate(desktop, caller, request, (ms) => sleep(ms, signal))
    step({ step: 'activated', ok: true, detail: `"${window.title}"` })
    grab = () => grabFrame(desktop, window.bounds)

    // 2. Search for the chat: the search box's old text is replaced by the name.
    checkpoint()
    clipboard = await saving
    let beforeSearch: ScreenFrame | undefined
    searchOpen = true
    // While the app notices the name on the clipboard: the window as it was, then the search box.
    await desktop.pasteText(caller, target, {
      meanwhile: async () => {
        const [windows, frame] = await Promise.all([desktop.windows(), grab()])
        windowsBefore = new Set(windows.map((w) => w.id))
        beforeSearch = frame
        await desktop.pressKeys(caller, platform.keys.search)
        await desktop.pressKeys(caller, platform.keys.selectAll)
      },
      settleMs: 0
    })
    if (!beforeSearch) throw new Error('the window was not captured before the search')
    const unsearched = beforeSearch
    let search = await readResults(unsearched, await settleTimed(grab, settling(platform.waits.afterSearch, unsearched)))
    if (search.unsettled) {
      // The results were still arriving when the window looked settled (a busy machine): the name
      // is pasted again over its selected self, and this time the window gets twice the quiet time.
      await desktop.pasteText(caller, target)
      search = await readResults(unsearched, await settleTimed(grab, settling(2 * platform.waits.afterSearch, search.selected)))
    }
    const { searched, selected, dialogs, results } = search
    // How long this app took to show a paste: a copy (the old draft's, below) is given three times that.
    const copyWaitMs = Math.min(DRAFT_COPY_MAX_MS, Math.max(DRAFT_COPY_MIN_MS, 3 * (search.changeSeenMs ?? DRAFT_COPY_MAX_MS)))
    const names = results.map((line) => line.text.trim()).filter(Boolean)
    step({ step: 'searched', ok: true, detail: names.join(' · ') || '(no results)', ...(names.length === 0 ? { detailText: { key: 'step.noResults' } } : {}), image: await preview(searched, results.map((l) => l.box)) })

    // 3. Exactly one result reads the name — not a name that merely contains it.
    const exact = results.filter((line) => sameText(line.text.trim(), target))
    if (exact.length !== 1) {
      const why =
        exact.length > 1
          ? sendReason('ambiguousResults', { count: exact.length, chat: target })
          : names.length > 0
            ? sendReason('noResult', { chat: target, results: quotedList(names) })
            : sendReason('noResultAtAll', { chat: target })
      step({ step: 'target_verified', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }
    const match = exact[0]!
    const row = results.indexOf(match)
    step({
      step: 'target_verified',
      ok: true,
      detail: `"${match.text.trim()}" (result ${row + 1} of ${results.length})`,
      detailText: { key: 'step.resultOf', params: { text: match.text.trim(), row: row + 1, total: results.length } }
    })

    // 4. Open it: the keyboard for the top result, a click on the line itself for any other.
    checkpoint()
    if (row === 0) await desktop.pressKeys(caller, platform.keys.openResult)
    else await desktop.click(caller, lineCentre(match.box), 'left', false)
    // Another result that begins with the name (`产品群（旧）` for `产品群`) is a look-alike whose
    // header a misread could turn into "name + member count": then the header must read the name exactly.
    const lookAlike = names.some((n) => n !== match.text.trim() && normalizeForMatch(n).startsWith(normalizeForMatch(target)))
    const resultsAt = new Set(results.filter((l) => overlaps(l.box, window.bounds) && !dialogs.some((d) => overlaps(d.bounds, l.box))).map((l) => l.pane.x))
    let opened = await headerOf(await settle(Math.min(SEEN_QUIET_MS, platform.waits.afterOpen), selected), selected, resultsAt, lookAlike)
    searchOpen = false
    if (!opened.reading && SEEN_QUIET_MS < platform.waits.afterOpen) opened = await headerOf(await settle(platform.waits.afterOpen), selected, resultsAt, lookAlike)
    if (!opened.reading) {
      step({ step: 'header_verified', ok: false, why: opened.why, detail: reasonText(opened.why), ...(opened.image ? { image: opened.image } : {}) })
      throw new NotSent(opened.why)
    }
    const { header, reading: headerReading } = opened
    step({ step: 'header_verified', ok: true, detail: `"${headerReading}"`, image: opened.image })

    // 5. The draft: read what it held, paste the text over it, and find it where it appeared.
    checkpoint()
    const old = await readDraft(desktop, caller, platform, copyWaitMs)
    draftReplaced = { old: old ?? '', at: null }
    if (old === null) draftReplaced = null // not a draft that can be put back: leave the box as the paste leaves it
    let draft = await pasteAndFind()
    if (!draft) draft = await pasteAndFind() // before the send key a paste can be tried again: it replaces the whole draft
    if (!draft) {
      const why = sendReason('pasteNotFound')
      step({ step: 'draft_pasted', ok: false, why, detail: reasonText(why) })
      throw new NotSent(why)
    }
    if (draftReplaced) draftReplaced.at = draft.click
    step({ step: 'draft_pasted', ok: true, detail: oneLine(draft.reading), image: await cropFrame(draft.frame, draft.area.rect) })

    // 6. The person sees the app, the verified chat, the exact text and the screen.
    const approvalImage = await cropFrame(draft.frame, union([header.rect, draft.area.rect]))
    deps.deadline.pause()
    let answer: ConfirmAnswer
    try {
      answer = await deps.confirm({ app: request.profile, target: headerReading, text: request.text, image: approvalImage }, signal)
    } finally {
      deps.deadline.resume()
    }
    if (!answer.allowed) {
      step({ step: 'approved', ok: false, detail: answer.reason })
      throw new NotSent(sendReason('notApproved', { reason: answer.reason }))
    }
    step({ step: 'approved', ok: true, detail: '' })

    // 7. While the question was open, the person may have used the app: check again, then send once.
    // What looks exactly as it did when it was verified (a caret's blink aside) needs no new reading.
    await activate(desktop, caller, request, (ms) => sleep(ms, signal))
    const now = await grab()
    if (!unchangedIn(opened.frame, now, header.rect)) {
      const again = await readHeader(now, header, lookAlike)
      if (!again.reading) {
        step({ step: 'header_verified', ok: false, why: again.why, detail: reasonText(again.why), image: again.image })
        throw new NotSent(again.why)
      }
    }
    await desktop.click(caller, draft.click, 'left', false)
    const before = await settle(Math.min(100, platform.waits.afterPaste))
    if (!unchangedIn(draft.frame, before, draft.area.rect)) {
      const draftReading = joinLines(await readArea(ocr, before, draft.area, signal))
      // The draft was verified strictly after the paste; this check is for a person's edit meanwhile,
      // so OCR's harmless misreads (`一` for a dash, a caret over a letter) do not stop the send.
      if (!readsSentMessage(draftReading, request.text)) {
        throw new NotSent(sendReason('draftChanged', { draft: oneLine(draftReading) }))
      }
    }
    checkpoint()
    sendPressed = true // from here on, never "not sent": the key may have reached the app
    draftReplaced = null
    await desktop.pressKeys(caller, platform.keys.send)
    step({ step: 'sent', ok: true, detail: platform.keys.send })

    // 8. The draft emptied, the conversation changed, and its newest message reads the text.
    let arrival = await arrivalIn(before, await settle(Math.min(SEEN_QUIET_MS, platform.waits.afterSend), before), draft.area)
    if (!arrival.sent && SEEN_QUIET_MS < platform.waits.afterSend) arrival = await arrivalIn(before, await settle(platform.waits.afterSend), draft.area)
    const image = arrival.image
    if (arrival.sent) {
      step({ step: 'verified', ok: true, detail: oneLine(arrival.newest), ...(image ? { image } : {}) })
      return { status: 'sent', reason: '', steps, durationMs: Date.now() - started }
    }
    const why = arrival.why
    step({ step: 'verified', ok: false, why, detail: reasonText(why), ...(image ? { image } : {}) })
    return { status: 'unknown', reason: reasonText(why), why, steps, durationMs: Date.now() - started }
  } catch (error) {
    const why = describeFailure(error, signal)
    if (sendPressed) {
      const after = afterSendKey(why)
      return { status: 'unknown', reason: reasonText(after), why: after, steps, durationMs: Date.now() - started }
    }
    await leaveNoTrace(error)
    return { status: 'not_sent', reason: reasonText(why), why, steps, durationMs: Date.now() - started }
  } finally {
    await clipboard?.restore().catch(() => {})
  }

  /**
   * The search's results in the settled window: every pane the search changed and every pane of a
   * dialog it opened, read while the search box's text is selected again — what that highlights is
   * the search box, not a result. `unsettled`: the highlight covered more than the search box's one
   * line, so the results were still arriving when the window was taken.
   */
  async function readResults(before: ScreenFrame, settled: { frame: ScreenFrame; changeSeenMs: number | null }) {
    const searched = settled.frame
    // A dialog the search opened is read whole, wherever the window manager put it.
    const dialogs = (await desktop.windows()).filter((w) => !windowsBefore.has(w.id) && w.bounds.width > 40 && w.bounds.height > 40)
    const dialogFrames = await Promise.all(dialogs.map((d) => grabFrame(desktop, d.bounds)))
    const reading = Promise.all([
      ...resultPanes(before, searched, [], false).map(async (pane) => ({ pane, inWindow: true, lines: await readArea(ocr, searched, wholePane(searched, pane), signal) })),
      ...dialogFrames.flatMap((frame) => panesOf(frame).map(async (pane) => ({ pane, inWindow: false, lines: await readArea(ocr, frame, wholePane(frame, pane), signal) })))
    ])
    reading.catch(() => {})
    await desktop.pressKeys(caller, platform.keys.selectAll)
    const selected = await settle(Math.min(120, platform.waits.afterSearch))
    const echo = [...changedRects(searched, selected), ...(await Promise.all(dialogFrames.map(async (f) => changedRects(f, await grabFrame(desktop, f.rect))))).flat()]
    // When a dialog opened, a pane of the window whose only change is the search box holds no results.
    const kept = new Set(resultPanes(before, searched, echo, dialogFrames.length > 0).map((pane) => pane.x))
    const seen = (await reading).filter((read) => !read.inWindow || kept.has(read.pane.x)).flatMap((read) => read.lines)
    const results = seen.filter((line) => !echo.some((rect) => overlaps(rect, line.box))).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
    const unsettled = seen.length - results.length > 1
    return { searched, selected, dialogs, results, unsettled, changeSeenMs: settled.changeSeenMs }
  }

  /** Whether the message arrived, as `after` shows it: the draft emptied, the conversation changed, and its newest message reads the text. */
  async function arrivalIn(before: ScreenFrame, after: ScreenFrame, draftArea: { pane: Pane; rect: Rect }) {
    // A draft box that shows no text at all needs no reading (a text of two characters is wider than the caret).
    const draftCleared =
      (normalizeForMatch(request.text).length >= 2 && showsNoText(after, draftArea.rect)) || similarity(joinLines(await readArea(ocr, after, draftArea, signal)), request.text) < 0.5
    const conversation = changedAreas(before, after).filter((a) => a.pane.x === draftArea.pane.x && a.rect.y + a.rect.height <= draftArea.rect.y + 4)
    const changed = conversation.length > 0
    const newestArea = changed ? bottomOf(conversation, draftArea.rect.y, request.text) : null
    const newestLines = newestArea ? await readArea(ocr, after, newestArea, signal) : []
    const newest = newestText(newestLines, request.text)
    const image = newestArea ? await cropFrame(after, newestArea.rect) : undefined
    const sent = changed && draftCleared && readsSentMessage(newest, request.text)
    const why = !changed
      ? sendReason('conversationUnchanged')
      : !draftCleared
        ? sendReason('draftStillFull')
        : sendReason('newestDiffers', { newest: oneLine(newest) })
    return { sent, newest, image, why }
  }

  /**
   * Select all, paste, and find the text where it appeared: soon after the window showed it, else
   * once it has been quiet for the profile's time. The window before the first paste is what a
   * paste is compared with.
   */
  async function pasteAndFind() {
    await desktop.pasteText(caller, request.text, {
      meanwhile: async () => {
        beforePaste ??= await grab()
        await desktop.pressKeys(caller, platform.keys.selectAll)
      },
      settleMs: 0
    })
    const before = beforePaste!
    const found = await findDraft(before, await settle(Math.min(SEEN_QUIET_MS, platform.waits.afterPaste), before))
    if (found || SEEN_QUIET_MS >= platform.waits.afterPaste) return found
    return findDraft(before, await settle(platform.waits.afterPaste))
  }

  /** Where the pasted text appeared in `frame`, read back. */
  async function findDraft(before: ScreenFrame, frame: ScreenFrame) {
    // Widest pane first: the draft box rather than the chat list's draft preview.
    const areas = changedAreas(before, frame).sort((a, b) => b.pane.width - a.pane.width || b.rect.y - a.rect.y)
    for (const area of areas) {
      const lines = await readArea(ocr, frame, area, signal)
      const reading = joinLines(lines)
      if (!readsText(reading, request.text)) continue
      const box = union(lines.map((l) => l.box))
      const draftArea = { pane: area.pane, rect: { x: area.pane.x, y: box.y - 4, width: area.pane.width, height: box.height + 8 } }
      return { frame, area: draftArea, reading, click: { x: Math.round(box.x + Math.min(box.width / 2, 60)), y: Math.round(box.y + Math.min(box.height / 2, 12)) } }
    }
    return null
  }

  /** The opened chat's header in `frame` and what it reads (`reading` set only when it is the chat's name), or why not. */
  async function headerOf(frame: ScreenFrame, before: ScreenFrame, resultsAt: Set<number>, exactOnly: boolean) {
    const header = findHeader(frame, before, resultsAt)
    if (!header) {
      return { frame, header: null, reading: undefined, image: undefined, why: sendReason('resultDidNotOpen', { key: platform.keys.openResult }) } as const
    }
    return { frame, header, ...(await readHeader(frame, header, exactOnly)) }
  }

  /** The top line of the pane that changed when the chat opened (not the results' pane); the widest other pane's top line when none did (the chat was open already). */
  function findHeader(opened: ScreenFrame, before: ScreenFrame, resultsAt: Set<number>): { pane: Pane; rect: Rect; changed: boolean } | null {
    const changes = changedAreas(before, opened).filter((a) => !resultsAt.has(a.pane.x))
    if (changes.length > 0) {
      const widest = changes.reduce((best, a) => (a.pane.width > best.pane.width ? a : best))
      const top = changes.filter((a) => a.pane.x === widest.pane.x).sort((a, b) => a.rect.y - b.rect.y)[0]!
      const line = topTextArea({ ...opened }, top.pane)
      // The pane's first text when it lies at or above the first change; else the first change itself.
      const rect = line && line.y <= top.rect.y ? line : top.rect
      return { pane: top.pane, rect, changed: true }
    }
    const panes = panesOf(opened).filter((p) => !resultsAt.has(p.x))
    const pane = panes.reduce<Pane | undefined>((best, p) => (!best || p.width > best.width ? p : best), undefined)
    const rect = pane ? topTextArea(opened, pane) : null
    if (!pane || !rect) return null
    return { pane, rect, changed: false }
  }

  /** What the header reads: `reading` is set when it is the chat's name (the profile's extras removed, unless exactOnly). */
  async function readHeader(frame: ScreenFrame, header: { pane: Pane; rect: Rect; changed: boolean }, exactOnly: boolean) {
    const lines = await readArea(ocr, frame, header, signal)
    const image = await cropFrame(frame, header.rect)
    const extras = exactOnly ? [] : compilePatterns(platform.headerExtras)
    const readings = [...lines.map((line) => line.text), lines.map((l) => l.text).join(' ')].map((t) => stripPatterns(t.trim(), extras).trim())
    const reading = readings.find((t) => sameText(t, target))
    const shown = oneLine(readings[0] ?? '')
    const why = header.changed
      ? sendReason('headerReads', { header: shown, chat: target })
      : sendReason('resultDidNotOpenHeader', { key: platform.keys.openResult, header: shown, chat: target })
    return { reading, image, why }
  }

  async function preview(frame: ScreenFrame, boxes: Rect[]) {
    return cropFrame(frame, boxes.length > 0 ? union(boxes) : frame.rect)
  }

  /** Closes the search and puts the old draft back, unless the person stopped the task (then their hands are on it). */
  async function leaveNoTrace(error: unknown) {
    const stoppedByPerson = signal.aborted && !(signal.reason instanceof TaskTimeoutError)
    if (stoppedByPerson) return
    const cleanupSignal = new AbortController().signal
    const cleanup: DesktopCaller = { ...deps.caller, signal: cleanupSignal }
    try {
      if (searchOpen) {
        await desktop.pressKeys(cleanup, 'escape')
        // A search dialog of its own may need a second Escape (the first clears its text).
        await sleep(100, cleanupSignal)
        const stillThere = (await desktop.windows()).some((w) => w.focused && !titleMatches(platform, w.title) && w.bounds.width > 40)
        if (stillThere) await desktop.pressKeys(cleanup, 'escape')
      }
      if (draftReplaced) await restoreDraft(desktop, cleanup, platform, draftReplaced.old, draftReplaced.at)
    } catch {
      // Best effort: the reason already says what went wrong.
    }
    void error
  }

  function describeFailure(error: unknown, abort: AbortSignal): SendReason {
    if (abort.aborted) {
      const reason = abort.reason
      if (reason instanceof TaskTimeoutError) return sendReason('timedOut', { seconds: Math.round(reason.timeoutMs / 1000) })
      return sendReason('stopped')
    }
    if (error instanceof NotSent) return error.why
    return sendReason('failed', { error: errorMessage(error) || `${name}: something went wrong` })
  }

}

/** The lowest changed areas above the draft, enough of them for the text's lines (the newest message). */
function bottomOf(areas: Array<{ pane: Pane; rect: Rect }>, draftTop: number, text: string): { pane: Pane; rect: Rect } {
  const lines = text.split('\n').length
  const budget = 60 + lines * 60 + Math.ceil(normalizeForMatch(text).length / 20) * 30
  const bottom = Math.min(draftTop, Math.max(...areas.map((a) => a.rect.y + a.rect.height)))
  const top = Math.max(Math.min(...areas.map((a) => a.rect.y)), bottom - budget)
  const pane = areas[0]!.pane
  return { pane, rect: { x: pane.x, y: top, width: pane.width, height: Math.max(1, bottom - top) } }
}

function joinLines(lines: OcrLine[]): string {
  return lines.map((l) => l.text).join('\n')
}

/** Finds the app's window and brings it forward; the app's own hotkey when focusing fails. */
async function activate(desktop: Operator, caller: DesktopCaller, request: SendTextRequest, wait: (ms: number) => Promise<void>): Promise<WindowInfo> {
  const { platform, profile } = request
  const find = async () => {
    const candidates = (await desktop.windows()).filter(
      (w) => w.bounds.width > 0 && w.bounds.height > 0 && titleMatches(platform, w.title) && (!platform.window.app || w.app === platform.window.app)
    )
    // A detached chat window has the chat's title; the main window is the largest with the app's title.
    return candidates.sort((a, b) => b.bounds.width * b.bounds.height - a.bounds.width * a.bounds.height)[0]
  }
  let window = await find()
  if (!window && platform.keys.activate) {
    await desktop.pressKeys(caller, platform.keys.activate)
    await wait(platform.waits.afterActivate)
    window = await find()
  }
  if (!window) {
    const titles = [...platform.window.titles, ...(platform.window.titlePattern ? [`/${platform.window.titlePattern}/`] : [])].join(', ')
    throw new NotSent(sendReason('notOpen', { app: profile.name.en, titles }))
  }
  if (!window.focused) {
    try {
      await desktop.focus(caller, window)
    } catch (error) {
      if (!platform.keys.activate) throw new NotSent(sendReason('cannotActivate', { app: profile.name.en, error: errorMessage(error) }))
      await desktop.pressKeys(caller, platform.keys.activate)
    }
    await wait(platform.waits.afterActivate)
    const now = (await desktop.windows()).find((w) => w.id === window!.id)
    if (!now?.focused) throw new NotSent(sendReason('notInFront', { app: profile.name.en }))
    window = now
  }
  return window
}

function lineCentre(box: Rect): Point {
  return { x: Math.round(box.x + Math.min(box.width / 2, 40)), y: Math.round(box.y + box.height / 2) }
}

function union(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x))
  const y = Math.min(...rects.map((r) => r.y))
  const right = Math.max(...rects.map((r) => r.x + r.width))
  const bottom = Math.max(...rects.map((r) => r.y + r.height))
  return { x, y, width: right - x, height: bottom - y }
}
