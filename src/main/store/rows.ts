import type {
  ApprovalPreview,
  ChatMessage,
  ConversationSummary,
  PendingApproval,
  RunSummary,
  ToolCallRecord,
  Usage
} from '../../shared'
import { parseJson } from './json'
import type { ApprovalRow, ConversationRow, MessageRow, RunRow, ToolCallRow } from './statements'

// Row → bridge shape. JSON columns are trusted casts: only this store writes them, from typed values.

export function toConversationSummary(row: ConversationRow): ConversationSummary {
  return { id: row.id, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at }
}

export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    runId: row.run_id,
    role: row.role,
    content: row.content,
    createdAt: row.created_at
  }
}

export function toToolCallRecord(row: ToolCallRow): ToolCallRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    runId: row.run_id,
    tool: row.tool,
    args: parseJson(row.args),
    status: row.status,
    isError: row.is_error !== 0,
    output: row.output,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationMs: row.duration_ms
  }
}

export function toRunSummary(row: RunRow): RunSummary {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    status: row.status,
    stopReason: row.stop_reason,
    error: row.error,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    usage: parseJson(row.usage) as Usage | null
  }
}

export function toPendingApproval(row: ApprovalRow): PendingApproval {
  return {
    approvalId: row.id,
    conversationId: row.conversation_id,
    runId: row.run_id,
    callId: row.call_id,
    tool: row.tool,
    args: parseJson(row.args),
    reason: row.reason,
    preview: JSON.parse(row.preview) as ApprovalPreview,
    expiresAt: row.expires_at
  }
}
