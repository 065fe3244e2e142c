/** The workspace: the one folder file tools may touch, enforced by canonical real path and, at run time, by opening race-free. */
export { isInsideFolder } from './inside'
export { confineToWorkspace, WorkspaceEscapeError, type ConfinedPath } from './confine'
export { isRefusal, type WorkspaceRefusal, type WorkspaceRefusalCode } from './refusal'
export { listWorkspaceFolder, openWorkspaceFile, type ListedFolder, type OpenedFile, type SafeOpenOptions } from './safe-open'
export { readOpenedFile, readWorkspaceFile, type ReadFile, type ReadOptions } from './safe-read'
export { writeWorkspaceFile, type WroteFile } from './safe-write'
export { WorkspaceReader } from './workspace-reader'
