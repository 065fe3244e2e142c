/** The agent loop: model step → tool calls → policy → approval → runtime → result. */
export { runAgent, DEFAULT_MAX_ITERATIONS, type AgentLoopOptions, type AgentRunInput, type AgentRunOutcome } from './agent-loop'
export {
  ToolCallRunner,
  type AttachmentToSave,
  type ModelImage,
  type ModelToolCall,
  type ToolCallResult,
  type ToolCallRunnerOptions
} from './tool-call-runner'
export { buildSystemPrompt } from './system-prompt'
export { memoryBlock, withMemoryBlock, MEMORY_BLOCK_HEAD, type OfferedMemory } from './memory-context'
