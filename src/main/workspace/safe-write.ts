import { randomBytes } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { lstat, open, rename, unlink } from 'node:fs/promises'
import { isRefusal, refuse, refusalFromError, type WorkspaceRefusal } from './refusal'
import { withSession, type HeldFolder, type SafeOpenOptions, type WorkspaceSession } from './safe-open'

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0

export interface WroteFile {
  ok: true
  display: string
  bytes: number
}

/**
 * Replaces (or creates) a workspace file race-free (docs/risk.md, "At run time: file tools"): the
 * parent folder is walked and held open (missing folders made one by one relative to it), a temp
 * file is created in it with O_CREAT|O_EXCL|O_NOFOLLOW, written, and renamed over the name in the
 * same held folder. A rename replaces the name and never writes through it, so neither a link nor
 * a second hard link swapped in at the last moment sends the content elsewhere. On any failure
 * (a full disk, an I/O error, a refusal) the temp file is removed and the reason returned.
 */
export async function writeWorkspaceFile(
  workspace: string,
  requested: string,
  content: string | Uint8Array,
  options: SafeOpenOptions = {}
): Promise<WroteFile | WorkspaceRefusal> {
  return withSession(workspace, options, async (session) => {
    const names = session.namesOf(requested)
    if (names === null) return refuse('outside', requested)
    const located = await session.locate(names, true)
    if (isRefusal(located)) return located
    const { folder, name, display } = located
    if (name === null) return refuse('isFolder', display)
    if (!(await session.folderIsInside(folder))) return refuse('changed', display)
    const existing = await replaceable(session, folder, name, display)
    if (isRefusal(existing)) return existing
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
    const written = await writeThroughTemp(session, folder, name, display, data, existing ? existing.mode & 0o7777 : 0o666)
    return isRefusal(written) ? written : { ok: true, display, bytes: data.length }
  })
}

/** The file a write would replace: absent (null), or a regular file with one name. */
async function replaceable(session: WorkspaceSession, folder: HeldFolder, name: string, display: string): Promise<Stats | null | WorkspaceRefusal> {
  const info = await lstat(session.child(folder, name)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : refusalFromError(error, display)))
  if (info === null || isRefusal(info)) return info
  if (info.isDirectory()) return refuse('isFolder', display)
  // A link here appeared after the walk followed it: a swap in progress.
  if (info.isSymbolicLink()) return refuse('changed', display)
  if (!info.isFile()) return refuse('special', display)
  if (info.nlink > 1) return refuse('hardLinked', display)
  return info
}

async function writeThroughTemp(
  session: WorkspaceSession,
  folder: HeldFolder,
  name: string,
  display: string,
  data: Uint8Array,
  mode: number
): Promise<true | WorkspaceRefusal> {
  // Hidden, unique, and short enough for a 255-byte name limit whatever the file is called.
  const temporary = session.child(folder, `.${name.slice(0, 100)}.deskclaw-${process.pid}-${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, mode).catch((error: unknown) =>
    refusalFromError(error, display)
  )
  if (isRefusal(handle)) return handle
  let created = true
  try {
    await handle.writeFile(data)
    await handle.close()
    // Checked again just before the rename, so a name that became a hard link or a folder meanwhile is refused.
    const existing = await replaceable(session, folder, name, display)
    if (isRefusal(existing)) return existing
    if (!(await session.folderIsInside(folder))) return refuse('changed', display)
    await rename(temporary, session.child(folder, name))
    created = false
    return true
  } catch (error) {
    return refusalFromError(error, display)
  } finally {
    await handle.close().catch(() => undefined)
    if (created) await unlink(temporary).catch(() => undefined)
  }
}
