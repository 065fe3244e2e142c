/**
 * Why the workspace would not open, read or write a path: a value, never a throw, so a file tool
 * turns it into an error result in the person's language (docs/tools.md, "The workspace").
 */
export type WorkspaceRefusalCode =
  /** The path itself points outside the workspace (`../x`, `/etc/passwd`). */
  | 'outside'
  /** A symbolic link on the way leads outside the workspace. */
  | 'linkOutside'
  /** More symbolic links on the way than the kernel itself follows (a loop). */
  | 'tooManyLinks'
  | 'notFound'
  /** A part of the path that must be a folder is a file (or the folder asked for is a file). */
  | 'notFolder'
  /** A file was asked for and this is a folder. */
  | 'isFolder'
  /** Not a regular file: a FIFO, socket or device. */
  | 'special'
  /** A regular file with more than one name: the other name may be outside the workspace. */
  | 'hardLinked'
  /** It changed between the check and the open (a swap in progress): nothing was read or written. */
  | 'changed'
  /** Larger than the caller reads; `detail` holds the size in bytes. */
  | 'tooLarge'
  /** Stopped by the person (the run's signal) part-way. */
  | 'stopped'
  | 'noSpace'
  | 'permission'
  /** Any other failure of the file system; `detail` holds its code. */
  | 'ioFailed'

export interface WorkspaceRefusal {
  ok: false
  code: WorkspaceRefusalCode
  /** The path as the person should see it: relative to the workspace where known, else as asked for. */
  path: string
  /** The system's error code (ENOSPC, EIO…) when the file system failed. */
  detail?: string
}

export const refuse = (code: WorkspaceRefusalCode, path: string, detail?: string): WorkspaceRefusal => ({
  ok: false,
  code,
  path,
  ...(detail ? { detail } : {})
})

export const isRefusal = (value: unknown): value is WorkspaceRefusal =>
  typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false && 'code' in value

/** A file-system error as a refusal: the errors a person can act on get their own code. */
export function refusalFromError(error: unknown, path: string): WorkspaceRefusal {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'UNKNOWN'
  switch (code) {
    case 'ENOENT':
      return refuse('notFound', path)
    case 'ENOTDIR':
      return refuse('notFolder', path)
    case 'EISDIR':
      return refuse('isFolder', path)
    case 'ELOOP':
      return refuse('changed', path)
    case 'ENXIO':
    case 'ENODEV':
      return refuse('special', path)
    case 'ENOSPC':
    case 'EDQUOT':
    case 'EFBIG':
      return refuse('noSpace', path, code)
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return refuse('permission', path, code)
    default:
      return refuse('ioFailed', path, code)
  }
}
