/** The live tool timeline: one card per tool call, and the one-line summary of its arguments. */
export { StatusChip, ToolCallCard } from './ToolCallCard'
export { prettyJson, summarizeArgs } from '../../../../shared/tool-summary'
