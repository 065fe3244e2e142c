/** The live tool timeline: one card per tool call (its summary, output and attachments), long runs folded. */
export { StatusChip, ToolCallCard } from './ToolCallCard'
export { oneLine, prettyJson, summarizeArgs } from '../../../../shared/tool-summary'
export { ToolAttachments } from './ToolAttachments'
export { ToolGroupRow, ToolRow } from './ToolGroup'
export {
  alwaysShown,
  countCalls,
  FOLD_MIN_CALLS,
  type FoldedItem,
  foldTimeline,
  isOpenCall,
  type ListRow,
  listRows,
  type ToolGroup,
  type ToolGroupCounts,
  toolNames,
  wasAsked
} from './grouping'
export { useCallLine } from './call-line'
