/** The live tool timeline: one card per tool call (its summary, output and attachments), long runs folded. */
export { StatusChip, ToolCallCard } from './ToolCallCard'
export { oneLine, prettyJson, summarizeArgs } from '../../../../shared/tool-summary'
export { AttachmentImage, ToolAttachments } from './ToolAttachments'
export { stepLabel } from './step-label'
export { LatestStep, ToolSteps } from './ToolSteps'
export { ToolGroupRow, ToolRow } from './ToolGroup'
export {
  alwaysShown,
  countCalls,
  FOLD_MIN_CALLS,
  type FoldedItem,
  foldTimeline,
  hasFailedStep,
  isFailedCall,
  isOpenCall,
  type ListRow,
  listRows,
  type ToolGroup,
  type ToolGroupCounts,
  toolNames,
  wasAsked
} from './grouping'
export { useCallLine } from './call-line'
export { shownStatus, type ShownStatus } from './shown-status'
