/** IPC channel names: plain constants, so the sandboxed preload can import them without zod. */
export const IPC_INVOKE_CHANNEL = 'deskclaw:invoke'
export const IPC_EVENT_CHANNEL = 'deskclaw:event'
