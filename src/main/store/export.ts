import {
  hasUsage,
  prettyJson,
  sumUsage,
  summarizeArgs,
  totalTokensOf,
  type ConversationDetail,
  type ConversationExport,
  type ConversationExportFormat,
  type Language,
  type ToolAttachmentRef,
  type ToolCallRecord,
  type ToolCallStatus,
  type Usage,
  type BranchChoices
} from '../../shared'
import { shownBranch } from './export-branch'

/**
 * A conversation as a file (conversations.export). Only what the store holds about the conversation
 * goes in: its detail snapshot, never settings (there are no keys in the store, and none may reach
 * an export). Markdown is for reading: each question and answer, tool calls as collapsed
 * <details> with their status, each run's tokens after it and the conversation's at the end. JSON
 * is the ConversationDetail itself (each run with its usage) plus `usage`, the conversation's total.
 */
export function exportConversation(
  detail: ConversationDetail,
  format: ConversationExportFormat,
  /** `choices`: the message versions on screen; Markdown shows that branch (JSON has every version). */
  options: { language?: Language; now?: number; choices?: BranchChoices } = {}
): ConversationExport {
  const base = exportFileBase(detail.conversation.title)
  if (format === 'json') {
    const { conversation, messages, toolCalls, runs } = detail
    const usage = sumUsage(runs.map((run) => run.usage))
    return {
      filename: `${base}.json`,
      mediaType: 'application/json',
      content: `${JSON.stringify({ conversation, messages, toolCalls, runs, usage }, null, 2)}\n`
    }
  }
  return {
    filename: `${base}.md`,
    mediaType: 'text/markdown',
    content: conversationMarkdown(detail, LABELS[options.language ?? 'en'], options.now ?? Date.now(), options.choices)
  }
}

/** Tool output beyond this is cut in Markdown (the JSON export keeps all of it). */
const OUTPUT_MAX_CHARS = 8_000
const FILENAME_MAX_CHARS = 80

interface Labels {
  you: string
  /** Before the names of a message's attachments. */
  attached: string
  assistant: string
  heading: string
  created: string
  exported: string
  arguments: string
  output: string
  noOutput: string
  cut: string
  status: Record<ToolCallStatus, string>
  run: { failed: string; failedWith: string; cancelled: string; interrupted: string; max_iterations: string }
  untitled: string
  /** Said when other versions of questions or answers (message versions) are left out. */
  otherVersions: string
  /** "{input} in · {output} out" and the optional parts after it, then the conversation's total. */
  usage: { tokens: string; cached: string; reasoning: string; runTotal: string; total: string }
}

const LABELS: Record<Language, Labels> = {
  en: {
    you: 'You',
    attached: 'Attached',
    assistant: 'DeskClaw',
    heading: 'DeskClaw conversation',
    created: 'created',
    exported: 'exported',
    arguments: 'Arguments',
    output: 'Output',
    noOutput: 'No output.',
    cut: '… {count} more characters (the JSON export has all of it)',
    status: {
      pending: 'Pending',
      awaiting_approval: 'Awaiting approval',
      running: 'Running',
      completed: 'Completed',
      error: 'Error',
      denied: 'Denied',
      interrupted: 'Interrupted'
    },
    run: {
      failed: 'The run failed.',
      failedWith: 'The run failed: {error}',
      cancelled: 'The run was cancelled.',
      interrupted: 'The run was interrupted (DeskClaw stopped before it ended).',
      max_iterations: 'The run stopped at its step limit.'
    },
    untitled: 'New conversation',
    otherVersions: 'This is the branch that was on screen; other versions of its questions and answers are in the JSON export.',
    usage: {
      tokens: 'Tokens: {input} in · {output} out',
      cached: '{n} cached',
      reasoning: '{n} reasoning',
      runTotal: '{n} in all',
      total: 'Conversation total: {n} tokens ({input} in · {output} out)'
    }
  },
  'zh-CN': {
    you: '你',
    attached: '附件',
    assistant: 'DeskClaw',
    heading: 'DeskClaw 对话',
    created: '创建于',
    exported: '导出于',
    arguments: '参数',
    output: '输出',
    noOutput: '无输出。',
    cut: '… 另有 {count} 个字符未显示（JSON 导出包含全部内容）',
    status: {
      pending: '待处理',
      awaiting_approval: '等待批准',
      running: '运行中',
      completed: '已完成',
      error: '出错',
      denied: '已拒绝',
      interrupted: '已中断'
    },
    run: {
      failed: '运行失败。',
      failedWith: '运行失败：{error}',
      cancelled: '运行已取消。',
      interrupted: '运行被中断（DeskClaw 在其结束前停止了）。',
      max_iterations: '运行已达到步数上限而停止。'
    },
    untitled: '新对话',
    otherVersions: '这里是导出时显示的分支；问题和回答的其他版本在 JSON 导出中。',
    usage: {
      tokens: 'Token：输入 {input} · 输出 {output}',
      cached: '缓存 {n}',
      reasoning: '推理 {n}',
      runTotal: '共 {n}',
      total: '对话合计：{n} 个 token（输入 {input} · 输出 {output}）'
    }
  }
}

type Item =
  | { kind: 'message'; at: number; rank: number; order: number; role: 'user' | 'assistant'; content: string; attachments?: readonly ToolAttachmentRef[] }
  | { kind: 'tool'; at: number; rank: number; order: number; call: ToolCallRecord }
  | { kind: 'run_end'; at: number; rank: number; order: number; text: string }
  | { kind: 'usage'; at: number; rank: number; order: number; usage: Usage }

function conversationMarkdown(detail: ConversationDetail, labels: Labels, now: number, choices?: BranchChoices): string {
  const { conversation } = detail
  const title = conversation.title.trim() || labels.untitled
  const out: string[] = [
    `# ${escapeInline(title)}`,
    '',
    `*${labels.heading} · ${labels.created} ${utc(conversation.createdAt)} · ${labels.exported} ${utc(now)}*`
  ]
  // One branch: the versions on screen (message versions); the JSON export has the others.
  const shown = shownBranch(detail, choices)
  if (shown.left > 0) out.push('', `*${labels.otherVersions}*`)
  let speaker: 'user' | 'assistant' | null = null
  const turn = (role: 'user' | 'assistant') => {
    if (speaker === role) return
    speaker = role
    out.push('', `## ${role === 'user' ? labels.you : labels.assistant}`)
  }
  for (const item of timeline(shown.detail, labels)) {
    if (item.kind === 'message') {
      const attached = attachmentsLine(item.attachments, labels)
      if (!item.content.trim() && !attached) continue
      turn(item.role)
      if (item.content.trim()) out.push('', item.content.trim())
      if (attached) out.push('', attached)
    } else if (item.kind === 'tool') {
      turn('assistant')
      out.push('', ...toolCallMarkdown(item.call, labels))
    } else if (item.kind === 'usage') {
      turn('assistant')
      out.push('', `*${runUsageText(item.usage, labels)}*`)
    } else {
      turn('assistant')
      out.push('', `> ${escapeInline(item.text)}`)
    }
  }
  const total = sumUsage(detail.runs.map((run) => run.usage))
  if (hasUsage(total)) out.push('', '---', '', `*${totalUsageText(total, labels)}*`)
  return `${out.join('\n')}\n`
}

/** "Tokens: 1,234 in · 56 out · 1,290 in all", with the cached and reasoning parts when reported. */
function runUsageText(usage: Usage, labels: Labels): string {
  const parts = [fill(labels.usage.tokens, { input: count(usage.inputTokens), output: count(usage.outputTokens) })]
  if (usage.cachedInputTokens) parts.push(fill(labels.usage.cached, { n: count(usage.cachedInputTokens) }))
  if (usage.reasoningTokens) parts.push(fill(labels.usage.reasoning, { n: count(usage.reasoningTokens) }))
  parts.push(fill(labels.usage.runTotal, { n: count(totalTokensOf(usage)) }))
  return parts.join(' · ')
}

function totalUsageText(usage: Usage, labels: Labels): string {
  return fill(labels.usage.total, { n: count(totalTokensOf(usage)), input: count(usage.inputTokens), output: count(usage.outputTokens) })
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole)
}

/** A token count with thousands separators, the same in both languages (1,234). */
function count(n: number | undefined): string {
  return (n ?? 0).toLocaleString('en-US')
}

/** Messages, tool calls and noteworthy run ends in the order the chat shows them (buildTimeline's). */
function timeline(detail: ConversationDetail, labels: Labels): Item[] {
  const items: Item[] = []
  let order = 0
  for (const message of detail.messages) {
    items.push({
      kind: 'message',
      at: message.createdAt,
      rank: message.role === 'user' ? 0 : 1,
      order: order++,
      role: message.role,
      content: message.content,
      attachments: message.attachments
    })
  }
  for (const call of detail.toolCalls) items.push({ kind: 'tool', at: call.startedAt, rank: 1, order: order++, call })
  // A run's outcome goes after everything it produced, even if its end time is unknown or early.
  const lastAt = new Map<string, number>()
  const produced = [...detail.messages.map((m) => [m.runId, m.createdAt] as const), ...detail.toolCalls.map((c) => [c.runId, c.startedAt] as const)]
  for (const [runId, at] of produced) if (runId) lastAt.set(runId, Math.max(lastAt.get(runId) ?? 0, at))
  for (const run of detail.runs) {
    const text =
      run.status === 'failed'
        ? run.error
          ? labels.run.failedWith.replace('{error}', oneLineOf(run.error))
          : labels.run.failed
        : run.status === 'cancelled'
          ? labels.run.cancelled
          : run.status === 'interrupted'
            ? labels.run.interrupted
            : run.stopReason === 'max_iterations'
              ? labels.run.max_iterations
              : null
    const at = Math.max(run.endedAt ?? run.startedAt, lastAt.get(run.id) ?? 0)
    if (text) items.push({ kind: 'run_end', at, rank: 2, order: order++, text })
    // Its tokens close the run, after its outcome (failed and cancelled runs count too).
    if (hasUsage(run.usage)) items.push({ kind: 'usage', at, rank: 3, order: order++, usage: run.usage })
  }
  return items.sort((a, b) => a.at - b.at || a.rank - b.rank || a.order - b.order)
}

/** "*Attached: photo.png (image/png, 1.2 MB) · notes.md (text/plain, 12 KB)*": names only, never the bytes. */
function attachmentsLine(attachments: readonly ToolAttachmentRef[] | undefined, labels: Labels): string | null {
  if (!attachments?.length) return null
  const names = attachments.map((a) => `${escapeInline(a.name ?? a.id)} (${a.mediaType}, ${byteSize(a.bytes)})`)
  return `*${labels.attached}: ${names.join(' · ')}*`
}

function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function toolCallMarkdown(call: ToolCallRecord, labels: Labels): string[] {
  const what = call.summary ?? summarizeArgs(call.args, 120)
  const parts = [`<strong>${escapeHtml(call.tool)}</strong>`]
  if (what) parts.push(`<code>${escapeHtml(oneLineOf(what))}</code>`)
  parts.push(escapeHtml(labels.status[call.status] ?? call.status))
  if (call.durationMs !== null) parts.push(duration(call.durationMs))
  const lines = ['<details>', `<summary>${parts.join(' · ')}</summary>`]
  const args = call.args === undefined || call.args === null ? '' : prettyJson(call.args)
  if (args) lines.push('', `**${labels.arguments}**`, '', ...fenced(args, 'json'))
  lines.push('', `**${labels.output}**`, '')
  if (call.output) {
    const cut = call.output.length > OUTPUT_MAX_CHARS
    lines.push(...fenced(cut ? call.output.slice(0, OUTPUT_MAX_CHARS) : call.output, 'text'))
    if (cut) lines.push('', labels.cut.replace('{count}', String(call.output.length - OUTPUT_MAX_CHARS)))
  } else {
    lines.push(labels.noOutput)
  }
  lines.push('', '</details>')
  return lines
}

/** A code block whose fence is longer than any backtick run inside, so the content cannot close it. */
function fenced(text: string, language: string): string[] {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return [`${fence}${language}`, text.replace(/\n$/, ''), fence]
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Text that must stay one line of plain text (a heading, a quote) in Markdown. */
function escapeInline(text: string): string {
  return oneLineOf(text).replace(/([\\`*_[\]<>#|])/g, '\\$1')
}

function oneLineOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function utc(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i

/** The title as a file name on any system: no separators or reserved characters, not too long. */
export function exportFileBase(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(/[\p{Cc}<>:"/\\|?*]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const cut = Array.from(cleaned).slice(0, FILENAME_MAX_CHARS).join('').replace(/^[.\s]+|[.\s]+$/g, '')
  return !cut || WINDOWS_RESERVED.test(cut) ? 'conversation' : cut
}
