/**
 * The bridge contract (docs/architecture.md): every call the renderer can make, with zod input and
 * output, and every event main pushes. Electron IPC and the web host's WebSocket serve the same
 * table, so the renderer cannot tell them apart. Renderer code must `import type` from here (values
 * stay in main). The calls are declared per domain (app, conversations, agent, approvals, settings, tools, desktop)
 * in this folder and combined here into the one table.
 */
import { z } from 'zod'
import { AgentEventSchema } from '../agent-events'
import type { AppErrorShape } from '../errors'
import { agentCalls } from './agent'
import { appCalls } from './app'
import { approvalCalls } from './approvals'
import { checkpointCalls } from './checkpoints'
import { conversationCalls } from './conversations'
import { DesktopControlSchema, desktopCalls } from './desktop'
import { learnCalls } from './desktop-learn'
import { DevicesChangedEventSchema, devicesCalls, SerialClosedEventSchema, SerialDataEventSchema } from './devices'
import { mcpCalls } from './mcp'
import { MemoriesChangedEventSchema, memoryCalls, NotificationEventSchema } from './memories'
import { scheduleCalls } from './schedules'
import { SettingsSchema, settingsCalls } from './settings'
import { toolCalls } from './tools'

export * from './agent'
export * from './app'
export * from './approvals'
export * from './checkpoints'
export * from './conversations'
export * from './desktop'
export * from './desktop-learn'
export * from './devices'
export * from './mcp'
export * from './memories'
export * from './schedules'
export * from './settings'
export * from './tools'

export const bridgeCalls = {
  ...appCalls,
  ...conversationCalls,
  ...agentCalls,
  ...approvalCalls,
  ...checkpointCalls,
  ...settingsCalls,
  ...toolCalls,
  ...desktopCalls,
  ...learnCalls,
  ...devicesCalls,
  ...mcpCalls,
  ...memoryCalls,
  ...scheduleCalls
} as const

export type BridgeCalls = typeof bridgeCalls
export type CallName = keyof BridgeCalls
export type CallInput<K extends CallName> = z.input<BridgeCalls[K]['input']>
export type CallOutput<K extends CallName> = z.output<BridgeCalls[K]['output']>

export type BridgeResult<T> = { ok: true; data: T } | { ok: false; error: AppErrorShape }

/** Events main pushes to every front door. */
export const BridgeEventSchema = z.discriminatedUnion('kind', [
  /** seq increases by one per event within one app process (see conversations.get lastEventSeq). */
  z.object({ kind: z.literal('agent'), event: AgentEventSchema, seq: z.number().int() }),
  z.object({ kind: z.literal('conversations_changed') }),
  z.object({ kind: z.literal('settings_changed'), settings: SettingsSchema }),
  /** A tool source added or removed tools: ask `tools.list` again. */
  z.object({ kind: z.literal('tools_changed') }),
  /** An MCP server's state, tools or log changed, or one was added or removed: ask `mcp.list` again. */
  z.object({ kind: z.literal('mcp_changed') }),
  /** Show this conversation in the main window (asked by the palette); the Electron shell also brings the window forward. */
  z.object({ kind: z.literal('show_conversation'), conversationId: z.string() }),
  /** A run took or gave back the keyboard and mouse (the "DeskClaw is controlling your desktop" banner). */
  z.object({ kind: z.literal('desktop_control'), control: DesktopControlSchema }),
  /** A device was plugged in or out, or a backend changed state (docs/devices.md). */
  DevicesChangedEventSchema,
  /** Text from a serial port the Devices panel's console opened. */
  SerialDataEventSchema,
  /** A console's port closed; `disconnected` when the device went away. */
  SerialClosedEventSchema,
  /** A memory was saved, changed or deleted: ask `memories.list` / `memories.savedIn` again. */
  MemoriesChangedEventSchema,
  /** A notice for the person at this machine (the browser UI shows it with the Notifications API). */
  NotificationEventSchema
])
export type BridgeEvent = z.infer<typeof BridgeEventSchema>

/** What the renderer gets from the preload (window.deskclaw) or from the WebSocket client. */
export interface DeskclawApi {
  invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<BridgeResult<CallOutput<K>>>
  onEvent(listener: (event: BridgeEvent) => void): () => void
}

/** Wire frames of the WebSocket transport (the IPC transport carries the same call/result pair). */
export type WireRequest = { id: number; call: string; input: unknown }
export type WireMessage =
  | { id: number; result: BridgeResult<unknown> }
  | { event: BridgeEvent }
