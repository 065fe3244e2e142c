/**
 * Model access (docs/architecture.md, "Model clients"): a model client from settings (the OpenAI
 * wire format spoken directly, Anthropic and OpenAI through the AI SDK), its retry policy, and
 * one-line descriptions of whatever a model call throws.
 */
export {
  CONVENTIONAL_API_KEY_ENV,
  apiKeyEnvFor,
  DEFAULT_BASE_URLS,
  MODEL_MAX_RETRIES,
  baseUrlOf,
  defaultModelFor,
  type ProviderConfig
} from './config'
export { createModelClient } from './create-model-client'
export type { ModelClient, ModelFinishReason, ModelTool, ModelTurnPart, ModelTurnRequest, ModelTurnResult } from './model-client'
export { describeModelError } from './describe-model-error'
export { isContextOverflow, windowFromOverflow } from './context-overflow'
export { modelAcceptsImages } from './image-input'
export { detectLocalServers, LOCAL_SERVERS, type LocalServer, type LocalServerProbe } from './detect-local'
export { contextWindowOf, DEFAULT_CONTEXT_WINDOWS, listedContextWindow, ollamaContextWindow, type ContextWindow } from './context-window'
export { isOllamaUrl, listedModelWindow, listModels, type ListModelsOptions, type ModelServer } from './list-models'
export { testConnection, type TestConnectionOptions } from './test-connection'
