/**
 * The send-text task (docs/desktop.md, "Sending messages"): activate the app → search the chat →
 * verify exactly one result reads the name → open it → verify the header → paste the text →
 * (approval) → press send → verify the newest message. Every check reads the screen (OCR). Until
 * the send key is pressed a failure is `not_sent` (safe to try again); after it, anything short of
 * a verified message is `unknown`. Nothing here ever presses the send key twice.
 */
import { createHash } from 'node:crypto'
import { errorMessage } from '../../../shared'
import { regionRect, titleMatches, type AppPlatform, type ChatAppProfile, type Region } from '../apps'
import type { ClipboardSnapshot } from '../clipboard'
import type { DesktopCaller, DesktopService } from '../desktop-service'
import { findExactLines, normalizeForMatch, sameText, similarity, stripPatterns, type OcrEngine, type OcrLine } from '../ocr'
import type { Rect, WindowInfo } from '../protocol'
import { TaskTimeoutError, type TaskDeadline } from './task-queue'

export type SendStatus = 'sent' | 'not_sent' | 'unknown'

/** The steps as the timeline shows them; `image` is the crop the step read. */
export const SEND_STEPS = ['activated', 'searched', 'target_verified', 'header_verified', 'draft_pasted', 'approved', 'sent', 'verified'] as const
export type SendStepName = (typeof SEND_STEPS)[number]

export interface SendStep {
  step: SendStepName
  ok: boolean
  detail: string
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
  desktop: DesktopService
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
  steps: SendStep[]
  /** How long the task took, in milliseconds (the approval's wait included). */
  durationMs: number
}

/** How close an OCR reading must be to the text to count as "it reads the text" (0..1). */
const READS_THE_TEXT = 0.85

/** A failure before the send key: nothing was sent. */
class NotSent extends Error {}

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

  const step = (s: SendStep) => {
    steps.push(s)
    deps.onStep?.(s)
  }
  const wait = (ms: number) => sleep(ms, signal)
  const checkpoint = () => {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('stopped')
  }
  /** Reads a region of the window: its crop and what OCR makes of it. */
  const read = async (window: WindowInfo, region: Region) => {
    checkpoint()
    const rect = regionRect(region, window.bounds)
    const shot = await desktop.screenshot(null, { kind: 'region', rect }, Math.max(64, rect.width))
    const result = await ocr.recognize(shot.png, { signal })
    return { rect, image: { png: shot.png, width: shot.width, height: shot.height }, lines: result.lines, text: result.lines.map((l) => l.text).join('\n') }
  }

  try {
    // 1. The app's window, in front.
    const window = await activate(desktop, caller, request, wait)
    step({ step: 'activated', ok: true, detail: `"${window.title}"` })

    // 2. Search for the chat: the search box's old text is replaced by the name.
    checkpoint()
    clipboard = await desktop.saveClipboard()
    await desktop.pressKeys(caller, platform.keys.search)
    await wait(150)
    await desktop.pressKeys(caller, platform.keys.selectAll)
    await desktop.pasteText(caller, target)
    await wait(platform.waits.afterSearch)
    const results = await read(window, platform.regions.results)
    const names = results.lines.map((line) => line.text.trim()).filter(Boolean)
    step({ step: 'searched', ok: true, detail: names.join(' · ') || '(no results)', image: results.image })

    // 3. Exactly one result reads the name — not a name that merely contains it.
    const exact = findExactLines(names, target)
    const listed = names.length > 0 ? names.map((n) => `"${n}"`).join(', ') : 'none'
    if (exact.length !== 1) {
      await desktop.pressKeys(caller, 'escape').catch(() => {})
      const why = exact.length === 0 ? `no search result reads exactly "${target}" (results: ${listed})` : `${exact.length} search results read exactly "${target}"; the chat is ambiguous`
      step({ step: 'target_verified', ok: false, detail: why, image: results.image })
      throw new NotSent(why)
    }
    const match = results.lines.filter((line) => line.text.trim() !== '')[exact[0]!]!
    const row = Math.floor((match.box.y + match.box.height / 2) / platform.resultRowHeight)
    step({ step: 'target_verified', ok: true, detail: `"${match.text.trim()}" (result ${row + 1} of ${names.length})`, image: results.image })

    // 4. Open it: the keyboard for the top result, a click on the line itself for any other.
    checkpoint()
    if (row === 0) await desktop.pressKeys(caller, platform.keys.openResult)
    else await desktop.click(caller, lineCentre(results.rect, match), 'left', false)
    await wait(platform.waits.afterOpen)
    // Another result that begins with the name (`产品群（旧）` for `产品群`) is a look-alike whose
    // header a misread could turn into "name + member count": then the header must read the name exactly.
    const lookAlike = names.some((n, i) => i !== exact[0] && normalizeForMatch(n).startsWith(normalizeForMatch(target)))
    const header = await verifyHeader(window, lookAlike)
    step({ step: 'header_verified', ok: true, detail: `"${header.reading}"`, image: header.image })

    // 5. The draft: click into it, select what an old draft held, paste the text.
    checkpoint()
    const draftRect = regionRect(platform.regions.draft, window.bounds)
    await desktop.click(caller, { x: Math.round(draftRect.x + draftRect.width / 2), y: Math.round(draftRect.y + draftRect.height / 2) }, 'left', false)
    let draft = await pasteDraft(window)
    if (!readsText(draft.text, request.text)) {
      // Before the send key a paste can be tried again: it replaces the whole draft.
      draft = await pasteDraft(window)
    }
    if (!readsText(draft.text, request.text)) {
      const why = `the draft does not show the text after pasting (it reads "${oneLine(draft.text)}")`
      step({ step: 'draft_pasted', ok: false, detail: why, image: draft.image })
      throw new NotSent(why)
    }
    step({ step: 'draft_pasted', ok: true, detail: oneLine(draft.text), image: draft.image })

    // 6. The person sees the app, the verified chat, the exact text and the screen.
    const preview = await capture(window, [platform.regions.header, platform.regions.draft])
    deps.deadline.pause()
    let answer: ConfirmAnswer
    try {
      answer = await deps.confirm({ app: request.profile, target: header.reading, text: request.text, image: preview }, signal)
    } finally {
      deps.deadline.resume()
    }
    if (!answer.allowed) {
      step({ step: 'approved', ok: false, detail: answer.reason })
      throw new NotSent(`not approved: ${answer.reason}; the draft was left unsent`)
    }
    step({ step: 'approved', ok: true, detail: '' })

    // 7. While the question was open, the person may have used the app: check again, then send once.
    const window2 = await activate(desktop, caller, request, wait)
    await verifyHeader(window2, lookAlike)
    const draft2 = await read(window2, platform.regions.draft)
    if (!readsText(draft2.text, request.text)) throw new NotSent('the draft changed while the approval was open')
    const before = await read(window2, platform.regions.messages)
    checkpoint()
    sendPressed = true // from here on, never "not sent": the key may have reached the app
    await desktop.pressKeys(caller, platform.keys.send)
    step({ step: 'sent', ok: true, detail: platform.keys.send })

    // 8. The newest message reads the text, and the draft is empty.
    await sleep(platform.waits.afterSend, signal)
    const after = await read(window2, platform.regions.messages)
    const newest = newestText(after.lines, request.text)
    const changed = digest(after.image.png) !== digest(before.image.png)
    const draft3 = await read(window2, platform.regions.draft)
    const draftCleared = !readsText(draft3.text, request.text)
    if (changed && draftCleared && readsText(newest, request.text)) {
      step({ step: 'verified', ok: true, detail: oneLine(newest), image: after.image })
      return { status: 'sent', reason: '', steps, durationMs: Date.now() - started }
    }
    const why = !changed
      ? 'the conversation did not change after the send key'
      : !draftCleared
        ? 'the draft still holds the text after the send key'
        : `the newest message reads "${oneLine(newest)}", not the text`
    step({ step: 'verified', ok: false, detail: why, image: after.image })
    return { status: 'unknown', reason: `the send key was pressed, but ${why}; check the chat before sending again`, steps, durationMs: Date.now() - started }
  } catch (error) {
    const why = describeFailure(error, signal)
    if (sendPressed) {
      return { status: 'unknown', reason: `the send key was pressed, then ${why}; check the chat before sending again`, steps, durationMs: Date.now() - started }
    }
    return { status: 'not_sent', reason: why, steps, durationMs: Date.now() - started }
  } finally {
    await clipboard?.restore().catch(() => {})
  }

  async function pasteDraft(window: WindowInfo) {
    await desktop.pressKeys(caller, platform.keys.selectAll)
    await desktop.pasteText(caller, request.text)
    await wait(platform.waits.afterPaste)
    return read(window, platform.regions.draft)
  }

  async function verifyHeader(window: WindowInfo, exactOnly: boolean) {
    const header = await read(window, platform.regions.header)
    const extras = exactOnly ? [] : compilePatterns(platform.headerExtras)
    const readings = [...header.lines.map((line) => line.text), header.text.replace(/\n/g, ' ')].map((t) => stripPatterns(t.trim(), extras).trim())
    const reading = readings.find((t) => sameText(t, target))
    if (reading === undefined) {
      const shown = oneLine(readings[0] ?? '')
      const why = `the chat header reads "${shown}", not "${target}"`
      step({ step: 'header_verified', ok: false, detail: why, image: header.image })
      throw new NotSent(why)
    }
    return { reading, image: header.image }
  }

  async function capture(window: WindowInfo, regions: Region[]) {
    const rects = regions.map((r) => regionRect(r, window.bounds))
    const rect = union(rects)
    const shot = await desktop.screenshot(null, { kind: 'region', rect }, Math.min(960, Math.max(64, rect.width)))
    return { png: shot.png, width: shot.width, height: shot.height }
  }

  function describeFailure(error: unknown, abort: AbortSignal): string {
    if (abort.aborted) {
      const reason = abort.reason
      if (reason instanceof TaskTimeoutError) return reason.message
      return 'stopped'
    }
    if (error instanceof NotSent) return error.message
    return errorMessage(error) || `${name}: something went wrong`
  }
}

/** Finds the app's window and brings it forward; the app's own hotkey when focusing fails. */
async function activate(desktop: DesktopService, caller: DesktopCaller, request: SendTextRequest, wait: (ms: number) => Promise<void>): Promise<WindowInfo> {
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
    throw new NotSent(`${profile.name.en} is not open: no window is titled ${titles}`)
  }
  if (!window.focused) {
    try {
      await desktop.focus(caller, window)
    } catch (error) {
      if (!platform.keys.activate) throw new NotSent(`could not bring ${profile.name.en} to the front: ${errorMessage(error)}`)
      await desktop.pressKeys(caller, platform.keys.activate)
    }
    await wait(platform.waits.afterActivate)
    const now = (await desktop.windows()).find((w) => w.id === window!.id)
    if (!now?.focused) throw new NotSent(`${profile.name.en}'s window did not come to the front`)
    window = now
  }
  return window
}

/**
 * Whether an OCR reading shows the text. OCR misreads a few characters, and an emoji it cannot
 * read often comes back as one stray character (a missing-glyph box read as `因`), so each picture
 * in the text allows one more difference on top of the 15 % (at least two from eight characters).
 */
export function readsText(reading: string, text: string): boolean {
  const expected = normalizeForMatch(text)
  const seen = normalizeForMatch(reading)
  if (expected === '') return seen === ''
  if (seen === '') return false
  const pictures = (text.match(/\p{Extended_Pictographic}/gu) ?? []).length
  // Short texts still get two differences (a draft's caret often costs one: `]|` read as nothing).
  const allowed = Math.max(Math.floor(expected.length * (1 - READS_THE_TEXT)), expected.length >= 8 ? 2 : 1) + pictures
  const distance = Math.round((1 - similarity(seen, expected)) * Math.max(seen.length, expected.length))
  return distance <= allowed
}

/** The newest message's text: the last lines of the conversation, as many as the text needs. */
export function newestText(lines: OcrLine[], text: string): string {
  const want = normalizeForMatch(text).length
  const taken: string[] = []
  let length = 0
  let best = ''
  let bestScore = -1
  for (let i = lines.length - 1; i >= 0 && length < want * 1.5 + 4; i--) {
    const line = lines[i]!.text.trim()
    if (!line) continue
    taken.unshift(line)
    length += normalizeForMatch(line).length
    const candidate = taken.join('\n')
    const score = similarity(normalizeForMatch(candidate), normalizeForMatch(text))
    if (score > bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return best
}

function lineCentre(rect: Rect, line: OcrLine): { x: number; y: number } {
  return { x: Math.round(rect.x + line.box.x + Math.min(line.box.width / 2, 40)), y: Math.round(rect.y + line.box.y + line.box.height / 2) }
}

function union(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x))
  const y = Math.min(...rects.map((r) => r.y))
  const right = Math.max(...rects.map((r) => r.x + r.width))
  const bottom = Math.max(...rects.map((r) => r.y + r.height))
  return { x, y, width: right - x, height: bottom - y }
}

function compilePatterns(patterns: string[]): RegExp[] {
  return patterns.flatMap((p) => {
    try {
      return [new RegExp(p, 'u')]
    } catch {
      return []
    }
  })
}

function digest(png: Uint8Array): string {
  return createHash('sha256').update(png).digest('hex')
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim()
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
