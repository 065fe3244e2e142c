/**
 * The wizard that teaches DeskClaw a new chat app (docs/desktop.md, "Teach DeskClaw a new app"), as a
 * state machine without effects: which action is allowed at which stage, what each answer makes of
 * the state, and the profile the answers add up to — validated by the same schema as the shipped
 * profiles. LearnSession runs the effects (windows, the tree, the dry send) and feeds the results in.
 */
import { LEARN_STAGES, suggestChatAppId, type LearnAction, type LearnElement, type LearnProblem, type LearnProblemCode, type LearnStage } from '../../../shared/bridge/desktop-learn'
import { CHAT_APP_ID_PATTERN } from '../../../shared'
import { AppPlatformSchema, ChatAppProfileSchema, profileProblems, type AppPlatform, type ChatAppProfile } from '../profiles'
import { parseKeyCombo } from '../../desktop'

export interface LearnFindings {
  via: 'accessibility' | 'screen'
  elements: LearnElement[]
  titles: string[]
  titlePattern?: string
  headerExtras: string[]
}

export interface DryRunReport {
  target: string
  passed: boolean
  steps: Array<{ step: string; ok: boolean; detail: string; image?: { png: Uint8Array; width: number; height: number } }>
  reason: string
}

export interface LearnState {
  stage: LearnStage
  window?: { title: string; app: string }
  keys?: { search: string; send: string }
  chat?: string
  findings?: LearnFindings
  dryRun?: DryRunReport
  saved?: { id: string; file: string }
}

/** What a successful step brings (after its effects ran). */
export type LearnEvent =
  | { kind: 'window'; window: { title: string; app: string } }
  | { kind: 'keys'; keys: { search: string; send: string } }
  | { kind: 'chat'; chat: string; findings: LearnFindings }
  | { kind: 'dry_run'; report: DryRunReport }
  | { kind: 'save'; saved: { id: string; file: string } }

/** The stage each action belongs to: it may run there or at any later stage (going back), never earlier. */
const ACTION_STAGE: Record<LearnAction['kind'], LearnStage> = { window: 'window', keys: 'keys', chat: 'chat', dry_run: 'dry_run', save: 'save' }

export { suggestChatAppId as suggestId }

export const initialLearnState = (): LearnState => ({ stage: 'window' })

export const problem = (code: LearnProblemCode, params: Record<string, string> = {}): LearnProblem => ({ code, params })

const index = (stage: LearnStage) => LEARN_STAGES.indexOf(stage)

/** An action asked for before its stage (a dry send before the keys are known) is refused. */
export function orderProblem(state: LearnState, kind: LearnAction['kind']): LearnProblem | null {
  const needed = ACTION_STAGE[kind]
  if (state.stage === 'saved' || index(needed) > index(state.stage)) return problem('out_of_order', { action: kind, stage: state.stage })
  return null
}

/**
 * The state after a step: its answer kept, the stage moved past it, and every later answer dropped
 * (a new window invalidates the keys learned for the old one). A dry run that did not pass stays at
 * the dry-run stage.
 */
export function reduceLearn(state: LearnState, event: LearnEvent): LearnState {
  const keep = (stage: LearnStage): LearnState => {
    const next: LearnState = { stage }
    if (index(stage) > index('window')) next.window = state.window
    if (index(stage) > index('keys')) next.keys = state.keys
    if (index(stage) > index('chat')) {
      next.chat = state.chat
      next.findings = state.findings
    }
    return next
  }
  switch (event.kind) {
    case 'window':
      return { stage: 'keys', window: event.window }
    case 'keys':
      return { ...keep('keys'), stage: 'chat', keys: event.keys }
    case 'chat':
      return { ...keep('chat'), stage: 'dry_run', chat: event.chat, findings: event.findings }
    case 'dry_run':
      return { ...keep('dry_run'), stage: event.report.passed ? 'save' : 'dry_run', dryRun: event.report }
    case 'save':
      return { ...state, stage: 'saved', saved: event.saved }
  }
}

/** A key name from the user, checked against the key-name table (docs/desktop.md, "Key names"); the normalised name or a problem. */
export function checkKey(which: 'search' | 'send', combo: string, platform: NodeJS.Platform = process.platform): { key: string } | { problem: LearnProblem } {
  const key = combo.trim().toLowerCase().replace(/\s*\+\s*/g, '+')
  try {
    if (key === '') throw new Error('no key given')
    parseKeyCombo(key, platform)
    return { key }
  } catch (error) {
    return { problem: problem('bad_key', { which, key: combo.trim(), detail: (error as Error).message }) }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * How the app's window is found and the chat's name read from its title. A title that holds the
 * open chat's name ("nick @ Net / #ops - HexChat") changes with every chat: the parts around the
 * name become the title pattern and the header extras. A title without it ("Buddy List", "WeChat")
 * is matched exactly. A title that is nothing but the chat's name cannot tell the app's window from
 * any other: null.
 */
export function windowMatch(title: string, chat: string | undefined): Pick<LearnFindings, 'titles' | 'titlePattern' | 'headerExtras'> | null {
  const at = chat ? title.lastIndexOf(chat) : -1
  if (!chat || at < 0) return { titles: [title.trim()], headerExtras: [] }
  const prefix = title.slice(0, at)
  const suffix = title.slice(at + chat.length)
  if (prefix.trim() === '' && suffix.trim() === '') return null
  const headerExtras = [...(prefix ? [`^${escapeRegExp(prefix)}`] : []), ...(suffix ? [`${escapeRegExp(suffix)}$`] : [])]
  return { titles: [], titlePattern: `^${escapeRegExp(prefix)}.+${escapeRegExp(suffix)}$`, headerExtras }
}

/** The part of a profile for this OS that the answers make: titles, keys, header extras; no regions (docs/desktop.md, "Finding the layout"). */
export function platformFrom(state: Pick<LearnState, 'window' | 'keys' | 'findings'>): AppPlatform {
  const { window, keys, findings } = state
  if (!window || !keys || !findings) throw new Error('the window, the keys and the findings come first')
  return AppPlatformSchema.parse({
    window: {
      titles: findings.titles,
      ...(findings.titlePattern ? { titlePattern: findings.titlePattern } : {}),
      // The screen way also tells windows apart by their class; the tree way goes by the window's process.
      ...(window.app && findings.via === 'screen' ? { app: window.app } : {})
    },
    keys: { search: keys.search, send: keys.send },
    headerExtras: findings.headerExtras
  })
}

/**
 * The profile to save: the learned platform under this OS, the names and where it was learned;
 * checked with ChatAppProfileSchema and profileProblems as any profile file is when it loads.
 */
export function profileFrom(
  state: LearnState,
  answer: { id: string; name: { en: string; 'zh-CN': string } },
  platform: NodeJS.Platform = process.platform,
  existingIds: readonly string[] = []
): { profile: ChatAppProfile } | { problem: LearnProblem } {
  const id = answer.id.trim()
  if (!CHAT_APP_ID_PATTERN.test(id)) return { problem: problem('bad_id', { id }) }
  if (existingIds.includes(id)) return { problem: problem('id_taken', { id }) }
  const en = answer.name.en.trim()
  const zh = answer.name['zh-CN'].trim() || en
  if (!en) return { problem: problem('bad_name') }
  if (platform !== 'linux' && platform !== 'win32' && platform !== 'darwin') return { problem: problem('invalid_profile', { detail: `unsupported OS ${platform}` }) }
  const learned = platformFrom(state)
  const parsed = ChatAppProfileSchema.safeParse({
    id,
    name: { en, 'zh-CN': zh },
    testedWith: `learned from "${state.window?.title ?? ''}" on ${new Date().toISOString().slice(0, 10)}`.slice(0, 200),
    platforms: { [platform]: learned }
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { problem: problem('invalid_profile', { detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` }) }
  }
  const problems = profileProblems(parsed.data)
  if (problems.length > 0) return { problem: problem('invalid_profile', { detail: problems[0]! }) }
  return { profile: parsed.data }
}
