/** Errors are values at boundaries (docs/architecture.md): a code the UI can translate and a one-line message. */
export const ErrorCodes = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'UNKNOWN_CALL',
  'FORBIDDEN',
  'BUSY',
  'MODEL_UNREACHABLE',
  'MODEL_AUTH',
  'MODEL_NOT_FOUND',
  'MODEL_RATE_LIMITED',
  'MODEL_ERROR',
  'NOT_CONFIGURED',
  'CANCELLED',
  'INTERNAL'
] as const
export type ErrorCode = (typeof ErrorCodes)[number]

/**
 * Message codes of the errors users commonly see (docs/architecture.md, "Texts from main"): the
 * renderer translates `key` with `params` (en and zh-CN) and shows the English `message` for an
 * error without one. A param named `detail` is what another program said (a server's own error
 * text): never translated, shown after the sentence.
 */
export const ErrorTextKeys = [
  'errors.model.unreachable',
  'errors.model.refused',
  'errors.model.connectionLost',
  'errors.model.timeout',
  'errors.model.auth',
  'errors.model.notFound',
  'errors.model.rateLimited',
  'errors.model.rateLimitedRetried',
  'errors.model.status',
  'errors.model.unreadable',
  'errors.model.failed',
  'errors.model.cancelled',
  'errors.model.listFailed',
  'errors.notConfigured.model',
  'errors.notConfigured.apiKey',
  'errors.notConfigured.baseUrl',
  'errors.settings.riskyNeedsConfirmation',
  'errors.settings.riskyNotConfirmed',
  'errors.busy',
  'errors.conversation.notFound',
  'errors.memory.notFound',
  'errors.schedule.notFound',
  'errors.schedule.badCron',
  'errors.store.diskFull',
  'errors.undo.nothing',
  'errors.undo.expired',
  'errors.undo.changedSincePreview',
  'errors.undo.alreadyUndone',
  'errors.undo.severalWorkspaces',
  'errors.staged.needsSandbox',
  'errors.staged.notFound',
  'errors.mcp.fileInvalid'
] as const
export type ErrorTextKey = (typeof ErrorTextKeys)[number]

/** A translatable error text: a message code and its parameters. */
export interface ErrorText {
  key: ErrorTextKey
  params?: Record<string, string | number>
}

export interface AppErrorShape {
  code: ErrorCode
  message: string
  /** The message code the UI translates (absent: only `message`, in English). */
  key?: ErrorTextKey
  params?: Record<string, string | number>
}

export class AppError extends Error {
  readonly text?: ErrorText

  constructor(
    readonly code: ErrorCode,
    message: string,
    text?: ErrorText
  ) {
    super(message)
    this.name = 'AppError'
    if (text) this.text = text
  }

  toJSON(): AppErrorShape {
    return { code: this.code, message: this.message, ...(this.text ? errorTextFields(this.text) : {}) }
  }
}

/** `key` and `params` as an AppErrorShape carries them (params left out when there are none). */
export function errorTextFields(text: ErrorText): Pick<AppErrorShape, 'key' | 'params'> {
  return text.params ? { key: text.key, params: text.params } : { key: text.key }
}

/** One line, no stack: what a user or the model is shown for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name
  return String(error)
}

export function toAppError(error: unknown, fallback: ErrorCode = 'INTERNAL'): AppErrorShape {
  if (error instanceof AppError) return error.toJSON()
  return { code: fallback, message: errorMessage(error) }
}
