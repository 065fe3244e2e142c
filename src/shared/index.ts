/** Contracts shared by main, preload and renderer: the bridge, the AgentEvent union, ids, errors. */
export * from './agent-events'
export * from './bridge'
export * from './channels'
export * from './errors'
export * from './ids'
export * from './risk'
export * from './tool-summary'
export * from './tool-text'
