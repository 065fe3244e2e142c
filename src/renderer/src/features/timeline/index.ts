/** The live tool timeline: one card per tool call (its summary, output and attachments). */
export { StatusChip, ToolCallCard } from './ToolCallCard'
export { oneLine, prettyJson, summarizeArgs } from '../../../../shared/tool-summary'
export { ToolAttachments } from './ToolAttachments'
