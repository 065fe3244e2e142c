/**
 * Whether a step's changes were recorded in an apply-at-end run's copy (docs/checkpoints.md, "Apply
 * at the end": the copy is `<data folder>/staging/<run id>`). Such steps are reviewed as the run's
 * one diff on its review card; the copy is gone once applied or discarded, so they offer no diff or
 * undo of their own.
 */
export function isStagedCopy(workspace: string, runId: string): boolean {
  return /[\\/]staging[\\/]$/.test(workspace.slice(0, workspace.length - runId.length)) && workspace.endsWith(runId)
}
