import { VerdictSchema } from '../../shared'
import type {
  ApprovalPreview,
  ChatMessage,
  ConversationSummary,
  PendingApproval,
  RiskAssessment,
  RiskRule,
  RunSummary,
  ToolAttachmentRef,
  ToolCallRecord,
  Usage
} from '../../shared'
import { parseJson } from './json'
import type {
  ApprovalRow,
  ApprovalRuleRow,
  AuditListRow,
  ConversationRow,
  MessageRow,
  RunRow,
  ToolCallRow
} from './statements'
import type { AuditRecord } from './types'

// Row → bridge shape. JSON columns are trusted casts: only this store writes them, from typed values.

/** Titles that older versions stored for an untitled conversation, in the language it was made in. */
const LEGACY_UNTITLED = new Set(['New conversation', '新对话'])

/** An untitled conversation's title is '' (the UI says "New conversation" in its own language), also for older rows. */
function untitledAsUnset(title: string): string {
  return LEGACY_UNTITLED.has(title.trim()) ? '' : title
}

export function toConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: untitledAsUnset(row.title),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    workspace: row.workspace ?? null,
    // Only when set: absent means the model in Settings.
    ...(row.model ? { model: row.model } : {}),
    // Only when pinned: absent means not pinned.
    ...(row.pinned_at != null ? { pinnedAt: row.pinned_at } : {})
  }
}

export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    runId: row.run_id,
    role: row.role,
    content: row.content,
    createdAt: row.created_at,
    // A question says where it hangs in the tree (docs/architecture.md, "Message versions").
    ...(row.role === 'user' && row.parent_run_id !== undefined ? { parentRunId: row.parent_run_id } : {})
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
    durationMs: row.duration_ms,
    runtime: row.runtime ?? null,
    verdict: VerdictSchema.safeParse(row.verdict).data ?? null,
    ...(row.summary ? { summary: row.summary } : {}),
    ...(row.attachments ? { attachments: parseJson(row.attachments) as ToolAttachmentRef[] } : {})
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
    usage: parseJson(row.usage) as Usage | null,
    model: row.model,
    // Only when known: runs recorded without a question (older emitters) leave it out.
    ...(row.answers_message_id ? { answersMessageId: row.answers_message_id } : {})
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
    preview: previewFromJson(row.preview),
    assessment: row.assessment === null ? UNRECORDED_ASSESSMENT : (JSON.parse(row.assessment) as RiskAssessment),
    bindingHash: row.binding_hash ?? '',
    expiresAt: row.expires_at
  }
}

/**
 * Previews stored before schema 3 had English titles and labels instead of message keys; they read
 * as keys, which show as the text itself.
 */
function previewFromJson(json: string): ApprovalPreview {
  type Legacy = { title: unknown; fields: Array<Record<string, unknown> & { label: unknown; value: string }> }
  const raw = JSON.parse(json) as Legacy
  const asText = (value: unknown) => (typeof value === 'string' ? { key: value } : (value as ApprovalPreview['title']))
  return {
    ...(raw as unknown as ApprovalPreview),
    title: asText(raw.title),
    fields: raw.fields.map((field) => ({ ...(field as unknown as ApprovalPreview['fields'][number]), label: asText(field.label) }))
  }
}

/**
 * What a question asked before schema 2 (no stored assessment) reads as: it asked, for no recorded
 * finding, and cannot become a rule. Such questions only exist in files upgraded mid-run; recovery
 * denies them at the next start.
 */
const UNRECORDED_ASSESSMENT: RiskAssessment = {
  verdict: 'ask',
  findings: [],
  alwaysRule: null,
  alwaysBlockedReason: 'asked before DeskClaw recorded risk assessments'
}

export function toRiskRule(row: ApprovalRuleRow): RiskRule {
  return { tool: row.tool, match: JSON.parse(row.match) as string[], decision: row.decision as RiskRule['decision'] }
}

export function toAuditRecord(row: AuditListRow): AuditRecord {
  return {
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    actor: row.actor,
    conversationId: row.conversation_id,
    runId: row.run_id,
    data: parseJson(row.data),
    hash: row.hash
  }
}
