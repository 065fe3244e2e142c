import {
  prettyJson,
  summarizeArgs,
  type ConversationDetail,
  type ConversationExport,
  type ConversationExportFormat,
  type Language,
  type ToolCallRecord,
  type ToolCallStatus
} from '../../shared'

/**
 * A conversation as a file (conversations.export). Only what the store holds about the conversation
 * goes in: its detail snapshot, never settings (there are no keys in the store, and none may reach
 * an export). Markdown is for reading: each question and answer, tool calls as collapsed
 * <details> with their status. JSON is the ConversationDetail itself, for keeping and tooling.
 */
export function exportConversation(
  detail: ConversationDetail,
  format: ConversationExportFormat,
  options: { language?: Language; now?: number } = {}
): ConversationExport {
  const base = exportFileBase(detail.conversation.title)
  if (format === 'json') {
    const { conversation, messages, toolCalls, runs } = detail
    return {
      filename: `${base}.json`,
      mediaType: 'application/json',
      content: `${JSON.stringify({ conversation, messages, toolCalls, runs }, null, 2)}\n`
    }
  }
  return {
    filename: `${base}.md`,
    mediaType: 'text/markdown',
    content: conversationMarkdown(detail, LABELS[options.language ?? 'en'], options.now ?? Date.now())
  }
}

/** Tool output beyond this is cut in Markdown (the JSON export keeps all of it). */
const OUTPUT_MAX_CHARS = 8_000
const FILENAME_MAX_CHARS = 80

interface Labels {
  you: string
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
}

const LABELS: Record<Language, Labels> = {
  en: {
    you: 'You',
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
    untitled: 'New conversation'
  },
  'zh-CN': {
    you: '你',
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
    untitled: '新对话'
  }
}

type Item =
  | { kind: 'message'; at: number; rank: number; order: number; role: 'user' | 'assistant'; content: string }
  | { kind: 'tool'; at: number; rank: number; order: number; call: ToolCallRecord }
  | { kind: 'run_end'; at: number; rank: number; order: number; text: string }

function conversationMarkdown(detail: ConversationDetail, labels: Labels, now: number): string {
  const { conversation } = detail
  const title = conversation.title.trim() || labels.untitled
  const out: string[] = [
    `# ${escapeInline(title)}`,
    '',
    `*${labels.heading} · ${labels.created} ${utc(conversation.createdAt)} · ${labels.exported} ${utc(now)}*`
  ]
  let speaker: 'user' | 'assistant' | null = null
  const turn = (role: 'user' | 'assistant') => {
    if (speaker === role) return
    speaker = role
    out.push('', `## ${role === 'user' ? labels.you : labels.assistant}`)
  }
  for (const item of timeline(detail, labels)) {
    if (item.kind === 'message') {
      if (!item.content.trim()) continue
      turn(item.role)
      out.push('', item.content.trim())
    } else if (item.kind === 'tool') {
      turn('assistant')
      out.push('', ...toolCallMarkdown(item.call, labels))
    } else {
      turn('assistant')
      out.push('', `> ${escapeInline(item.text)}`)
    }
  }
  return `${out.join('\n')}\n`
}

/** Messages, tool calls and noteworthy run ends in the order the chat shows them (buildTimeline's). */
function timeline(detail: ConversationDetail, labels: Labels): Item[] {
  const items: Item[] = []
  let order = 0
  for (const message of detail.messages) {
    items.push({ kind: 'message', at: message.createdAt, rank: message.role === 'user' ? 0 : 1, order: order++, role: message.role, content: message.content })
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
    if (text) items.push({ kind: 'run_end', at: Math.max(run.endedAt ?? run.startedAt, lastAt.get(run.id) ?? 0), rank: 2, order: order++, text })
  }
  return items.sort((a, b) => a.at - b.at || a.rank - b.rank || a.order - b.order)
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
