/** The workspace: the one folder file tools may touch, enforced by canonical real path. */
export { confineToWorkspace, WorkspaceEscapeError, type ConfinedPath } from './confine'
