import { isRefusal, type WorkspaceRefusal } from './refusal'
import { listFolderIn, openFileIn, WorkspaceSession, type ListedFolder, type SafeOpenOptions } from './safe-open'
import { readOpenedFile, type ReadFile, type ReadOptions } from './safe-read'

/**
 * Many reads and listings from one held workspace root (docs/tools.md, "grep and glob"): a search
 * walks hundreds of files, each opened exactly as `file_read` opens one — name by name from the
 * workspace's descriptor, never through a link, regular single-linked files only — without
 * reopening the root for each.
 */
export class WorkspaceReader {
  private constructor(private readonly session: WorkspaceSession) {}

  static async open(workspace: string, options: SafeOpenOptions = {}): Promise<WorkspaceReader | WorkspaceRefusal> {
    const session = await WorkspaceSession.open(workspace, options)
    return isRefusal(session) ? session : new WorkspaceReader(session)
  }

  /** The workspace's canonical real path. */
  get realRoot(): string {
    return this.session.realRoot
  }

  /** Reads a workspace file (a path relative to the workspace) race-free; refusals are values. */
  async read(requested: string, options: Omit<ReadOptions, keyof SafeOpenOptions>): Promise<ReadFile | WorkspaceRefusal> {
    const opened = await openFileIn(this.session, requested).catch(() => null)
    if (opened === null) return { ok: false, code: 'ioFailed', path: requested }
    if (isRefusal(opened)) return opened
    return readOpenedFile(opened, options)
  }

  /** Lists a workspace folder through the folder it opened. */
  async list(requested: string): Promise<ListedFolder | WorkspaceRefusal> {
    return listFolderIn(this.session, requested).catch(() => ({ ok: false as const, code: 'ioFailed' as const, path: requested }))
  }

  async close(): Promise<void> {
    await this.session.close()
  }
}
