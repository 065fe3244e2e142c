import { AppError, type McpServerConfig } from '../../shared'

/** One thing a page asked for that would let code run or skip a question, as the confirmer shows it. */
export interface McpTrustChange {
  key: 'mcpServer'
  from: string
  to: string
  why: { en: string; 'zh-CN': string }
}

export type McpTrustConfirmer = (changes: McpTrustChange[], language: 'en' | 'zh-CN') => Promise<boolean>

const LAUNCH_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'type'] as const

/**
 * What in a saved server gives more trust than before (docs/risk.md, "MCP tools"): a new or changed
 * command or address (it runs code, or sends data, without a question), tools added to
 * autoApprove, read-only hints trusted. Turning a server off, allowing less or removing it is not.
 */
export function mcpTrustChanges(name: string, previous: McpServerConfig | undefined, next: McpServerConfig): McpTrustChange[] {
  const changes: McpTrustChange[] = []
  const launch = (config: McpServerConfig | undefined) => (config ? JSON.stringify(LAUNCH_KEYS.map((key) => config[key] ?? null)) : '')
  const target = next.command ? [next.command, ...(next.args ?? [])].join(' ') : (next.url ?? '')
  if (launch(previous) !== launch(next)) {
    changes.push({
      key: 'mcpServer',
      from: previous ? name : '(none)',
      to: `${name}: ${target}`,
      why: {
        en: `MCP server "${name}" will run or connect to: ${target}${next.env && Object.keys(next.env).length ? ` (with ${Object.keys(next.env).join(', ')})` : ''}.`,
        'zh-CN': `MCP 服务器“${name}”将运行或连接：${target}${next.env && Object.keys(next.env).length ? `（附带 ${Object.keys(next.env).join('、')}）` : ''}。`
      }
    })
  }
  const before = new Set(previous?.autoApprove ?? [])
  const gained = (next.autoApprove ?? []).filter((tool) => !before.has(tool))
  if (gained.length > 0) {
    const tools = gained.map((tool) => (tool === '*' ? 'all tools' : tool)).join(', ')
    changes.push({
      key: 'mcpServer',
      from: [...before].join(', ') || '(none)',
      to: `"${name}" runs without asking: ${tools}`,
      why: {
        en: `Tools of the MCP server "${name}" will run without asking: ${tools}.`,
        'zh-CN': `MCP 服务器“${name}”的这些工具将不再询问即运行：${gained.map((tool) => (tool === '*' ? '全部工具' : tool)).join('、')}。`
      }
    })
  }
  if (next.trustReadOnlyHints === true && previous?.trustReadOnlyHints !== true) {
    changes.push({
      key: 'mcpServer',
      from: 'hints ignored',
      to: `"${name}" read-only hints trusted`,
      why: {
        en: `Tools the MCP server "${name}" calls read-only will run without asking, also in read-only mode.`,
        'zh-CN': `MCP 服务器“${name}”标为只读的工具将不再询问即运行，只读模式下也是如此。`
      }
    })
  }
  return changes
}

/**
 * A front end may only give an MCP server more trust after the person at the machine said yes
 * (like autonomy "full", docs/risk.md "Autonomy levels"): a page cannot start a command by itself.
 */
export async function confirmMcpTrust(changes: McpTrustChange[], confirm: McpTrustConfirmer | undefined, language: 'en' | 'zh-CN'): Promise<void> {
  if (changes.length === 0) return
  // Read into "Switching to {what} needs a confirmation…" (errors.settings.risky*).
  const what = changes.map((change) => `MCP ${change.to}`).join('; ')
  if (!confirm) {
    throw new AppError('FORBIDDEN', `Switching to ${what} needs a confirmation at this computer, and nobody can be asked here. Edit mcp.json in the data folder instead, or use the desktop app.`, {
      key: 'errors.settings.riskyNeedsConfirmation',
      params: { what }
    })
  }
  if (!(await confirm(changes, language))) {
    throw new AppError('FORBIDDEN', `Switching to ${what} was not confirmed; nothing changed.`, { key: 'errors.settings.riskyNotConfirmed', params: { what } })
  }
}
