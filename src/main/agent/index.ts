/** The agent loop: model step → tool calls → policy → approval → runtime → result. */
export { runAgent, DEFAULT_MAX_ITERATIONS, type AgentLoopOptions, type AgentRunInput, type AgentRunOutcome } from './agent-loop'
export { ToolCallRunner } from './tool-call-runner'
export type { AttachmentToSave, ModelImage, ModelToolCall, ToolCallResult, ToolCallRunnerOptions } from './tool-call-types'
export { repeatHandling, type RepeatHandling } from './run-results'
export { buildSystemPrompt } from './system-prompt'
export { memoryBlock, withMemoryBlock, MEMORY_BLOCK_HEAD, type OfferedMemory } from './memory-context'
