/**
 * Tools (docs/architecture.md): defineTool(), tool sources and packs, the registry, and output
 * truncation for the model. Each pack folder offers one factory that receives its services.
 */
export {
  defineTool,
  ok,
  fail,
  withDisplay,
  riskSubjectOf,
  shownArgs,
  text,
  ToolRefusal,
  TOOL_NAME_PATTERN,
  ToolRepeatKinds,
  type AnyTool,
  type PreviewContext,
  type RiskSubjectValue,
  type ToolAttachment,
  type ToolConfirmAnswer,
  type ToolContext,
  type ToolProgress,
  type ToolRepeat,
  type ToolDefinition,
  type ToolOutput
} from './define-tool'
export { ToolRegistry, type ArgsCheck, type ModelToolDeclaration } from './registry'
export {
  COMPACT_CONTEXT_WINDOW,
  firstSentence,
  SHORT_DESCRIPTION_MAX,
  runToolDescriptions,
  toolDescriptionStyle,
  trimJsonSchema,
  type ToolDescriptionStyle
} from './compact'
export { MutableToolSource, namespacedToolName, toolPack, type ToolSource } from './source'
export { createFileTools } from './files'
export { createSearchTools } from './search'
export { createGitTools, type GitToolServices } from './git'
export { createCheckTools, type CheckToolServices } from './checks'
export { createCodeTools, type CodeSandbox, type CodeToolServices } from './code'
export { createShellTools, type ShellToolServices } from './shell'
export { createDesktopTools, type DesktopToolServices } from './desktop'
export { createHardwareTools, type HardwareToolServices } from './hardware'
export { createMessagingTools, type MessagingToolServices } from './messaging'
export { createBrowserTools, type BrowserToolServices } from './browser'
export { createWebTools, type WebHop, type WebToolServices } from './web'
export { DEFAULT_OUTPUT_LIMITS, truncateForModel, type OutputLimits, type Truncated } from './truncate'
export { createMemoryTools, type MemoryBook, type MemoryToolServices } from './memory'
export { createNotifyTools, type NotifyToolServices } from './notify'
export { createScheduleTools, type ScheduleToolServices } from './schedule'
export { createAgentTools, DELEGATE_TOOL, type AgentToolServices, type ChildRunRequest, type ChildRunResult } from './agents'
