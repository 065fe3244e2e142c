import type { ExecRequest } from './types'

/** The request as an argv run inside a POSIX sandbox: a shell line goes through `/bin/sh -c`. */
export function posixArgv(request: ExecRequest): string[] {
  if (request.argv === undefined) return ['/bin/sh', '-c', request.command]
  if (request.argv.length === 0) throw new Error('Cannot run an empty argv.')
  return [...request.argv]
}

/** The request as an argv for the host: on Windows a shell line goes through `cmd.exe /c`. */
export function hostArgv(request: ExecRequest): string[] {
  if (process.platform === 'win32' && request.argv === undefined) {
    return ['cmd.exe', '/d', '/s', '/c', request.command]
  }
  return posixArgv(request)
}
