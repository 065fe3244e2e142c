/**
 * Checkpoints (docs/checkpoints.md): the workspace recorded in a shadow repository in the data
 * folder before and after every call that can write, the changes between two checkpoints,
 * undo/redo that never overwrites a change made since (UndoService), and runs staged in a copy
 * of the workspace, applied at the end (StagedRuns).
 */
export { GitMissingError } from './git-plumbing'
export {
  DEFAULT_CHECKPOINT_LIMITS,
  EMPTY_TREE,
  ShadowRepository,
  type Checkpoint,
  type CheckpointLimits,
  type SkippedFile
} from './shadow-repository'
export { blobContent, changesBetween, describeChangesForModel, toChangedFile, ZERO_ID, type ChangeKind, type FileChange } from './changes'
export {
  applyRewind,
  planRewind,
  type ConflictChoice,
  type RewindConflict,
  type RewindPlan,
  type RewindResult
} from './rewind'
export { CheckpointService, WorkspaceCheckpoints, type RecordedStep, type StepCheckpoints } from './workspace-checkpoints'
export { fileSide, MAX_IMAGE_BYTES, MAX_TEXT_BYTES } from './file-sides'
export { objectBytes, pruneAllRepositories, pruneRepository, type PruneLimits } from './prune'
export {
  applyStaged,
  discardStaged,
  listStaged,
  planApplyStaged,
  reviewStaged,
  stageWorkspace,
  stagingPaths,
  type StagedCopy
} from './staging'
export { UndoService, type UndoOutcome, type UndoPreview, type UndoTarget, type UndoConflict } from './undo-service'
export { StagedRuns, type StagedApplied, type StagedReview } from './staged-runs'
