/**
 * Checkpoints in the UI (docs/checkpoints.md, "The UI"): a step's and a run's changes with the Diff
 * dialog, undo/redo with its preview and conflicts.
 */
export { DiffDialog, type DiffDialogProps } from './DiffDialog'
export { FileDiffView } from './FileDiffView'
export { RunChanges } from './RunChanges'
export { StepChanges } from './StepChanges'
export { UndoDialog } from './UndoDialog'
export { ApplyAtEndSwitch } from './ApplyAtEndSwitch'
export { StagedReviews } from './StagedReviews'
export { RestoreBeforeMessage } from './RestoreBeforeMessage'
