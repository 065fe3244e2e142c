/** Tools: defineTool(), the registry, the built-ins, and output truncation for the model. */
export {
  defineTool,
  ok,
  fail,
  READ_CATEGORIES,
  ToolCategories,
  type AnyTool,
  type ToolCategory,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput
} from './define-tool'
export { ToolRegistry, type ArgsCheck } from './registry'
export { builtinTools } from './builtin'
export { DEFAULT_OUTPUT_LIMITS, truncateForModel, type OutputLimits, type Truncated } from './truncate'
