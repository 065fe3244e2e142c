/**
 * What the renderer, the CLI and native dialogs need to know about tools to show them: each tool's
 * message table (en and zh-CN) and how tool texts (key + params) are turned into a sentence.
 * Plain functions and types, no zod: the renderer imports the functions as values.
 */
import type { ApprovalPreview, ToolText } from './agent-events'

/** A tool's user-visible strings by key; `{name}` in a string is replaced by the text's param. (Schema: shared/bridge/tools.ts.) */
export interface ToolMessages {
  en: Record<string, string>
  'zh-CN': Record<string, string>
}

/** One entry of the tool catalogue (`tools.list`); the catalogue changes when a tool source does. */
export interface ToolInfo {
  name: string
  category: string
  access: 'read' | 'write' | 'execute'
  /** How its subject is judged and shown (a saved rule for a command reads as a command line, for a path as a path). */
  subjectKind?: 'command' | 'path' | 'url' | 'device' | 'chat' | 'server'
  messages: ToolMessages
}

/**
 * The text in `language`, else in English, else the key itself (a tool that vanished while its
 * question was open still shows something readable).
 */
export function formatToolText(text: ToolText, messages: ToolMessages | undefined, language: 'en' | 'zh-CN'): string {
  const template = messages?.[language][text.key] ?? messages?.en[text.key] ?? text.key
  const params = text.params ?? {}
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole))
}

/**
 * The tool-call runner's own outcomes (docs/architecture.md, "Texts from main"): a call that never
 * reached its tool (unknown, invalid, denied, not approved, changed) or whose tool failed outside
 * its own words. Their keys are the UI's (src/renderer/src/i18n), not any tool's table, so a
 * `display` whose key starts with `toolRun.` is translated there.
 */
export const RunnerTextKeys = [
  'toolRun.unknownTool',
  'toolRun.unavailable',
  'toolRun.invalidArgs',
  'toolRun.outsideWorkspace',
  'toolRun.refused',
  'toolRun.deniedByPolicy',
  'toolRun.deniedByUser',
  'toolRun.deniedByUserReason',
  'toolRun.notApproved.timeout',
  'toolRun.notApproved.no_front_door',
  'toolRun.notApproved.cancelled',
  'toolRun.notApproved.policy',
  'toolRun.changedAfterApproval',
  'toolRun.repeatedWrite',
  'toolRun.cancelled',
  'toolRun.crashed'
] as const
export type RunnerTextKey = (typeof RunnerTextKeys)[number]

export const RUNNER_TEXT_PREFIX = 'toolRun.'

/** True for the runner's own texts (translated by the UI), false for a tool's (its `messages`). */
export function isRunnerText(text: ToolText): boolean {
  return text.key.startsWith(RUNNER_TEXT_PREFIX)
}

/** A preview as plain text in one language: for the CLI's prompt and the native dialog. */
export function previewAsText(
  preview: ApprovalPreview,
  messages: ToolMessages | undefined,
  language: 'en' | 'zh-CN'
): { title: string; fields: Array<{ label: string; value: string }> } {
  return {
    title: formatToolText(preview.title, messages, language),
    fields: preview.fields.map((field) => ({
      label: formatToolText(field.label, messages, language),
      value: field.display ? formatToolText(field.display, messages, language) : field.value
    }))
  }
}
