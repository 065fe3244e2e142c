/**
 * Teaching DeskClaw a new chat app over the bridge (docs/desktop.md, "Teach DeskClaw a new app"):
 * one wizard session in main, moved on by actions; every answer is the session's whole view. What
 * went wrong is a code with parameters, written in the UI's language by the renderer.
 */
import { z } from 'zod'
import { defineCall } from './define-call'

/** The wizard's stages, in order: each action moves on at most one, and may go back to any earlier one. */
export const LEARN_STAGES = ['window', 'keys', 'chat', 'dry_run', 'save', 'saved'] as const
export type LearnStage = (typeof LEARN_STAGES)[number]

/** Why an action was refused; params fill the sentence (`learn.problem.<code>` in the renderer's dictionaries). */
export const LEARN_PROBLEM_CODES = [
  'out_of_order',
  'desktop_unavailable',
  'no_window',
  'title_is_chat',
  'bad_key',
  'empty_chat',
  'chat_not_found',
  'chat_ambiguous',
  'dry_run_failed',
  'bad_id',
  'id_taken',
  'bad_name',
  'invalid_profile',
  'save_failed',
  'no_session'
] as const
export type LearnProblemCode = (typeof LEARN_PROBLEM_CODES)[number]

export const LearnProblemSchema = z.object({ code: z.enum(LEARN_PROBLEM_CODES), params: z.record(z.string(), z.string()) })
export type LearnProblem = z.infer<typeof LearnProblemSchema>

export const LearnActionSchema = z.discriminatedUnion('kind', [
  /** The app's window, by its exact title as the windows list shows it. */
  z.object({ kind: z.literal('window'), title: z.string().min(1).max(400) }),
  /** Key names as docs/desktop.md "Key names" writes them (`ctrl+f`, `enter`). */
  z.object({ kind: z.literal('keys'), search: z.string().max(60), send: z.string().max(60) }),
  /** One chat the app shows, exactly as it shows it. */
  z.object({ kind: z.literal('chat'), name: z.string().max(200) }),
  /** Search, open, verify the header, set the draft and read it back — then put the old draft back. Never sends. */
  z.object({ kind: z.literal('dry_run'), target: z.string().max(200), text: z.string().max(2000) }),
  z.object({ kind: z.literal('save'), id: z.string().max(60), name: z.object({ en: z.string().max(80), 'zh-CN': z.string().max(80) }) })
])
export type LearnAction = z.infer<typeof LearnActionSchema>

/** Something the wizard found in the app's window. */
export const LearnElementSchema = z.object({
  /** search_field · chat_item (named the chat) · similar_item · entry (the message box) · conversation (its text, where exposed) */
  kind: z.enum(['search_field', 'chat_item', 'similar_item', 'entry', 'conversation']),
  role: z.string(),
  name: z.string(),
  /** The window it is in. */
  window: z.string()
})
export type LearnElement = z.infer<typeof LearnElementSchema>

export const LearnImageSchema = z.object({ png: z.string(), width: z.number().int(), height: z.number().int() })

export const LearnViewSchema = z.object({
  sessionId: z.string(),
  stage: z.enum(LEARN_STAGES),
  /** The open windows to choose from (untitled ones left out). */
  windows: z.array(z.object({ title: z.string(), app: z.string() })),
  window: z.object({ title: z.string(), app: z.string() }).optional(),
  keys: z.object({ search: z.string(), send: z.string() }).optional(),
  /** Every key name docs/desktop.md "Key names" lists, to choose from (modifiers first). */
  keyNames: z.array(z.string()),
  chat: z.string().optional(),
  findings: z
    .object({
      /** accessibility: the app's widgets were read; screen: it exposes none, the dry send reads the screen (its crops are shown). */
      via: z.enum(['accessibility', 'screen']),
      elements: z.array(LearnElementSchema),
      /** How the window will be found and the chat's name read from its title. */
      titles: z.array(z.string()),
      titlePattern: z.string().optional(),
      headerExtras: z.array(z.string())
    })
    .optional(),
  dryRun: z
    .object({
      target: z.string(),
      passed: z.boolean(),
      /** The send's steps up to the approval (which the dry run always refuses); detail is the task's own words. */
      steps: z.array(z.object({ step: z.string(), ok: z.boolean(), detail: z.string(), image: LearnImageSchema.optional() })),
      reason: z.string()
    })
    .optional(),
  /** The profile as it would be saved (JSON), once the dry run passed. */
  profile: z.string().optional(),
  saved: z.object({ id: z.string(), file: z.string() }).optional(),
  problem: LearnProblemSchema.optional()
})
export type LearnView = z.infer<typeof LearnViewSchema>

/** The dry send refuses at the approval with this reason: the send key is never pressed (the wizard shows it in the UI's language). */
export const DRY_RUN_REASON = 'dry run: the wizard never sends'

/** The profile id a name suggests: lower-case letters, digits and dashes (CHAT_APP_ID_PATTERN). */
export function suggestChatAppId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return id || 'my-chat-app'
}

export const learnCalls = {
  /** A new wizard session with the open windows listed. */
  'desktop.learn.start': defineCall(z.object({}), LearnViewSchema),
  /** One step of the wizard; a refused step leaves the session as it was, with the problem. */
  'desktop.learn.act': defineCall(z.object({ sessionId: z.string(), action: LearnActionSchema }), LearnViewSchema),
  /** Ends the session (the dialog was closed). */
  'desktop.learn.close': defineCall(z.object({ sessionId: z.string() }), z.object({ closed: z.boolean() }))
} as const
