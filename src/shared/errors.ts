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

export interface AppErrorShape {
  code: ErrorCode
  message: string
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
    this.name = 'AppError'
  }

  toJSON(): AppErrorShape {
    return { code: this.code, message: this.message }
  }
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
