import { constants, existsSync, type Dirent, type Stats } from 'node:fs'
import { lstat, mkdir, open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { isInsideFolder } from './inside'
import { isRefusal, refuse, refusalFromError, type WorkspaceRefusal } from './refusal'

/*
 * "Decide on what will run, at the moment it runs" (docs/risk.md, "At run time: file tools"):
 * a file tool never checks a path and opens it later. It walks the path one name at a time from a
 * handle on the workspace folder, opens each name relative to the folder it holds, and reads or
 * writes through what it opened.
 *
 * Node has no openat(2). On Linux the descriptor's magic link `/proc/self/fd/N` stands in for the
 * folder handle: `open('/proc/self/fd/N/name', O_NOFOLLOW)` resolves `name` inside the very folder
 * descriptor N refers to, whatever has been renamed or swapped since. Elsewhere (macOS, Windows)
 * each name is checked with lstat and the object finally opened is compared with its real path by
 * device and inode, so a swap is refused when it is noticed rather than prevented.
 *
 * Symbolic links: a link on the way is read (readlink) and its target walked again from the
 * workspace handle, at most MAX_LINK_HOPS times, and only when the target stays inside the
 * workspace. Nothing is ever opened *through* a link (every open is O_NOFOLLOW), so a link swapped
 * in after it was read is refused (ELOOP), never followed. This keeps links inside a project
 * (node_modules/.bin, `docs -> documentation`) working without trusting them.
 */

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const O_DIRECTORY = constants.O_DIRECTORY ?? 0
const O_NONBLOCK = constants.O_NONBLOCK ?? 0
/** What Linux itself allows (MAXSYMLINKS) before ELOOP. */
const MAX_LINK_HOPS = 40

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd')

export interface SafeOpenOptions {
  /** Use the lstat-and-compare strategy even where `/proc/self/fd` exists (tests of the other platforms' path). */
  portable?: boolean
}

/** A folder inside the workspace, held open where the platform allows. */
export interface HeldFolder {
  /** Where its children are reached: `/proc/self/fd/N` on Linux, the folder's real path elsewhere. */
  path: string
  handle?: FileHandle
  /** Its names from the workspace root ([] for the root). */
  names: string[]
}

/** The end of a walk: the folder that holds the last name, and that name (null when the path is a folder itself). */
export interface Located {
  folder: HeldFolder
  name: string | null
  /** The path relative to the workspace, forward slashes, '.' for the root. */
  display: string
}

/** One use of the workspace: its root held open, the handles a walk opened, and the checks on what was opened. */
export class WorkspaceSession {
  private readonly held = new Set<FileHandle>()

  private constructor(
    /** Canonical real path of the workspace. */
    readonly realRoot: string,
    /** The spellings of the root a path may start with (as configured, and real). */
    private readonly roots: string[],
    readonly root: HeldFolder,
    readonly useProc: boolean
  ) {}

  static async open(workspace: string, options: SafeOpenOptions = {}): Promise<WorkspaceSession | WorkspaceRefusal> {
    const useProc = PROC_FD && !options.portable
    try {
      const realRoot = await realpath(workspace)
      const roots = [...new Set([realRoot, resolve(workspace)])]
      if (!useProc) return new WorkspaceSession(realRoot, roots, { path: realRoot, names: [] }, false)
      const handle = await open(realRoot, constants.O_RDONLY | O_DIRECTORY)
      const session = new WorkspaceSession(realRoot, roots, { path: procPath(handle), handle, names: [] }, true)
      session.held.add(handle)
      if ((await readlink(session.root.path)) !== realRoot) {
        await session.close()
        return refuse('changed', '.')
      }
      return session
    } catch (error) {
      return refusalFromError(error, '.')
    }
  }

  /** The names of `requested` inside the workspace (lexically: `..` is undone by name), or null when it points outside. */
  namesOf(requested: string, base: string[] = []): string[] | null {
    if (requested.includes('\0')) return null
    const absolute = isAbsolute(requested) ? resolve(requested) : resolve(this.realRoot, ...base, requested)
    for (const root of this.roots) {
      const rel = relative(root, absolute)
      if (rel === '') return []
      if (!leavesRoot(rel)) return rel.split(sep).filter((name) => name !== '')
    }
    return null
  }

  /** A name in a held folder, as a path the kernel resolves relative to that folder. */
  child(folder: HeldFolder, name: string): string {
    return join(folder.path, name)
  }

  /**
   * Walks `names` from the root. Missing folders on the way are created (one mkdir relative to the
   * held folder each) when `create` is set. Links are followed as the header says. The last name
   * is not opened: the caller opens it with the flags it needs.
   */
  async locate(names: string[], create: boolean): Promise<Located | WorkspaceRefusal> {
    let pending = names
    let folder = this.root
    let hops = 0
    const shown = (...more: string[]) => [...folder.names, ...more].join('/') || '.'
    for (;;) {
      if (pending.length === 0) return { folder, name: null, display: shown() }
      const [name, ...rest] = pending as [string, ...string[]]
      const path = this.child(folder, name)
      const info = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : refusalFromError(error, shown(name))))
      if (isRefusal(info)) return this.leaving(folder, info)
      if (info?.isSymbolicLink()) {
        if (++hops > MAX_LINK_HOPS) return this.leaving(folder, refuse('tooManyLinks', shown(name)))
        const target = await readlink(path).catch(() => null)
        if (target === null) return this.leaving(folder, refuse('changed', shown(name)))
        const next = this.namesOf(target, folder.names)
        if (next === null) return this.leaving(folder, refuse('linkOutside', shown(name)))
        await this.leave(folder)
        folder = this.root
        pending = [...next, ...rest]
        continue
      }
      if (rest.length === 0) return { folder, name, display: shown(name) }
      if (!info) {
        if (!create) return this.leaving(folder, refuse('notFound', shown(...pending)))
        const made = await mkdir(path).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : refusalFromError(error, shown(name))))
        if (isRefusal(made)) return this.leaving(folder, made)
      } else if (!info.isDirectory()) {
        return this.leaving(folder, refuse('notFolder', shown(name)))
      }
      const next = await this.enter(folder, name).catch((error: unknown) => refusalFromError(error, shown(name)))
      if (isRefusal(next)) return this.leaving(folder, next)
      await this.leave(folder)
      folder = next
      pending = rest
    }
  }

  /** Opens a folder by name relative to a held one, never through a link. */
  async enter(folder: HeldFolder, name: string): Promise<HeldFolder> {
    const names = [...folder.names, name]
    const path = this.child(folder, name)
    if (!this.useProc) {
      const info = await lstat(path)
      if (info.isSymbolicLink()) throw Object.assign(new Error('link'), { code: 'ELOOP' })
      if (!info.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ELOOP' })
      return { path, names }
    }
    const handle = await open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
      // Callers lstat first and enter only a folder; one that is a link or a file a moment later was
      // swapped (Linux says ENOTDIR for a link opened O_DIRECTORY|O_NOFOLLOW): ELOOP, refused as `changed`.
      if (error.code === 'ENOTDIR') error.code = 'ELOOP'
      throw error
    })
    this.held.add(handle)
    return { path: procPath(handle), handle, names }
  }

  /** True when the held folder is still inside the workspace (on Linux by its descriptor; elsewhere by its real path). */
  async folderIsInside(folder: HeldFolder): Promise<boolean> {
    if (folder.handle) return isInsideFolder(this.realRoot, await readlink(folder.path).catch(() => ''))
    const real = await realpath(folder.path).catch(() => '')
    return real === join(this.realRoot, ...folder.names)
  }

  /**
   * True when what `handle` refers to is inside the workspace. On Linux: the descriptor's own real
   * path. Elsewhere: the name's real path is inside and names the same object (device and inode),
   * so a swap between the open and this check is a mismatch.
   */
  async openedIsInside(handle: FileHandle, folder: HeldFolder, name: string, opened: Stats): Promise<boolean> {
    if (this.useProc) return isInsideFolder(this.realRoot, await readlink(procPath(handle)).catch(() => ''))
    const real = await realpath(this.child(folder, name)).catch(() => '')
    if (!isInsideFolder(this.realRoot, real)) return false
    const now = await stat(real).catch(() => null)
    return now !== null && now.dev === opened.dev && now.ino === opened.ino
  }

  /** Closes a folder a walk opened (never the root, which the session closes). */
  async leave(folder: HeldFolder): Promise<void> {
    if (!folder.handle || folder === this.root) return
    this.held.delete(folder.handle)
    await folder.handle.close().catch(() => undefined)
  }

  async close(): Promise<void> {
    const handles = [...this.held]
    this.held.clear()
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)))
  }

  private async leaving(folder: HeldFolder, refusal: WorkspaceRefusal): Promise<WorkspaceRefusal> {
    await this.leave(folder)
    return refusal
  }
}

/** An open regular file of the workspace with exactly one name; the caller reads it and closes it. */
export interface OpenedFile {
  ok: true
  handle: FileHandle
  display: string
  size: number
}

/**
 * Opens a workspace file for reading, race-free: O_NOFOLLOW|O_NONBLOCK (a FIFO never blocks),
 * then the descriptor itself must be a regular file with one link, inside the workspace.
 */
export async function openWorkspaceFile(workspace: string, requested: string, options: SafeOpenOptions = {}): Promise<OpenedFile | WorkspaceRefusal> {
  return withSession(workspace, options, (session) => openFileIn(session, requested))
}

/**
 * `openWorkspaceFile` within a session already open (a search reads many files from one held root).
 * The folders the walk opened are closed before it returns; the file's descriptor does not need them.
 */
export async function openFileIn(session: WorkspaceSession, requested: string): Promise<OpenedFile | WorkspaceRefusal> {
  const names = session.namesOf(requested)
  if (names === null) return refuse('outside', requested)
  const located = await session.locate(names, false)
  if (isRefusal(located)) return located
  try {
    return await openLocated(session, located)
  } finally {
    await session.leave(located.folder)
  }
}

async function openLocated(session: WorkspaceSession, { folder, name, display }: Located): Promise<OpenedFile | WorkspaceRefusal> {
  if (name === null) return refuse('isFolder', display)
  const path = session.child(folder, name)
  // lstat first so a device is never opened at all (opening a serial port resets the board on it);
  // the descriptor's fstat below is what decides.
  const seen = await lstat(path).catch((error: unknown) => refusalFromError(error, display))
  if (isRefusal(seen)) return seen
  if (seen.isDirectory()) return refuse('isFolder', display)
  // The walk followed any link here, so a link now is one swapped in since.
  if (seen.isSymbolicLink()) return refuse('changed', display)
  if (!seen.isFile()) return refuse('special', display)
  const handle = await open(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch((error: unknown) => refusalFromError(error, display))
  if (isRefusal(handle)) return handle
  try {
    const refusal = await checkOpenedFile(session, handle, folder, name, display)
    if (!refusal) return { ok: true, handle, display, size: (await handle.stat()).size }
    await handle.close().catch(() => undefined)
    return refusal
  } catch (error) {
    await handle.close().catch(() => undefined)
    return refusalFromError(error, display)
  }
}

/** What makes an opened file unfit to read or replace, or null when it is a single-named regular file inside. */
async function checkOpenedFile(session: WorkspaceSession, handle: FileHandle, folder: HeldFolder, name: string, display: string): Promise<WorkspaceRefusal | null> {
  const info = await handle.stat()
  if (info.isDirectory()) return refuse('isFolder', display)
  if (!info.isFile()) return refuse('special', display)
  if (info.nlink > 1) return refuse('hardLinked', display)
  if (!(await session.openedIsInside(handle, folder, name, info))) return refuse('changed', display)
  return null
}

export interface ListedFolder {
  ok: true
  display: string
  entries: Dirent[]
}

/** Lists a workspace folder through the folder it opened (on Linux readdir of `/proc/self/fd/N`). */
export async function listWorkspaceFolder(workspace: string, requested: string, options: SafeOpenOptions = {}): Promise<ListedFolder | WorkspaceRefusal> {
  return withSession(workspace, options, (session) => listFolderIn(session, requested))
}

/** `listWorkspaceFolder` within a session already open; the folders it opened are closed before it returns. */
export async function listFolderIn(session: WorkspaceSession, requested: string): Promise<ListedFolder | WorkspaceRefusal> {
  const names = session.namesOf(requested)
  if (names === null) return refuse('outside', requested)
  const located = await session.locate(names, false)
  if (isRefusal(located)) return located
  let folder = located.folder
  try {
    if (located.name !== null) {
      const info = await lstat(session.child(folder, located.name)).catch((error: unknown) => refusalFromError(error, located.display))
      if (isRefusal(info)) return info
      if (!info.isDirectory()) return refuse(info.isSymbolicLink() ? 'changed' : 'notFolder', located.display)
      const opened = await session.enter(folder, located.name).catch((error: unknown) => refusalFromError(error, located.display))
      if (isRefusal(opened)) return opened
      await session.leave(folder)
      folder = opened
    }
    const before = session.useProc ? null : await lstat(folder.path).catch(() => null)
    if (!(await session.folderIsInside(folder))) return refuse('changed', located.display)
    const entries = await readdir(folder.path, { withFileTypes: true }).catch((error: unknown) => refusalFromError(error, located.display))
    if (isRefusal(entries)) return entries
    // Without a held folder the listing was by path: it must still be the folder that was checked.
    if (before) {
      const after = await lstat(folder.path).catch(() => null)
      if (!after || after.ino !== before.ino || after.dev !== before.dev || !(await session.folderIsInside(folder))) return refuse('changed', located.display)
    }
    return { ok: true, display: located.display, entries }
  } finally {
    await session.leave(folder)
  }
}

/** Runs `work` with the workspace held open, and closes every handle the walk left open. */
export async function withSession<T>(
  workspace: string,
  options: SafeOpenOptions,
  work: (session: WorkspaceSession) => Promise<T | WorkspaceRefusal>
): Promise<T | WorkspaceRefusal> {
  const session = await WorkspaceSession.open(workspace, options)
  if (isRefusal(session)) return session
  try {
    return await work(session)
  } catch (error) {
    return refusalFromError(error, '.')
  } finally {
    await session.close()
  }
}

export function procPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`
}

/** A relative path that climbs out (`..`, `../x`) or is on another drive; `..notes` is a name like any other. */
function leavesRoot(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)
}
