/**
 * Settings that remove the user's safety net — autonomy `full` (nothing asks) and the `native`
 * runtime (commands run unsandboxed) — are confirmed by the main process, never just by a front
 * end that asks for them (docs/risk.md, "Autonomy levels"): a compromised or scripted page cannot
 * switch them on by itself.
 */
import { AppError, type Settings } from '../../shared'

export interface RiskySettingChange {
  /** `mcpServer`: a page gives an MCP server more trust (src/main/mcp/confirm.ts). */
  key: 'autonomy' | 'runtime' | 'mcpServer'
  from: string
  to: string
  /** One line for the confirmation, in English and Chinese. */
  why: { en: string; 'zh-CN': string }
}

/** Asks the person at the machine (a native dialog, a terminal prompt); resolves true only on a clear yes. */
export type SettingConfirmer = (changes: RiskySettingChange[], language: Settings['language']) => Promise<boolean>

/** The changes in `patch` that need a confirmation, given the current settings. */
export function riskySettingChanges(current: Settings, patch: Partial<Settings>): RiskySettingChange[] {
  const changes: RiskySettingChange[] = []
  if (patch.autonomy === 'full' && current.autonomy !== 'full') {
    changes.push({
      key: 'autonomy',
      from: current.autonomy,
      to: 'full',
      why: {
        en: 'Autonomy "full": the agent runs everything without asking, except what the critical catalogue and your deny rules refuse.',
        'zh-CN': '自主级别“完全”：除关键目录和你的拒绝规则外，智能体执行一切操作都不再询问。'
      }
    })
  }
  if (patch.runtime === 'native' && current.runtime !== 'native') {
    changes.push({
      key: 'runtime',
      from: current.runtime,
      to: 'native',
      why: {
        en: 'Runtime "native": shell commands run directly on this computer, without a sandbox.',
        'zh-CN': '运行环境“本机”：Shell 命令将直接在这台电脑上运行，没有沙箱。'
      }
    })
  }
  return changes
}

/** Applies `patch` only after the confirmer said yes to its risky part; otherwise a FORBIDDEN error that says how. */
export async function confirmRiskySettings(
  current: Settings,
  patch: Partial<Settings>,
  confirm: SettingConfirmer | undefined
): Promise<void> {
  const changes = riskySettingChanges(current, patch)
  if (changes.length === 0) return
  const what = changes.map((change) => `${change.key} "${change.to}"`).join(' and ')
  if (!confirm) {
    throw new AppError(
      'FORBIDDEN',
      `Switching to ${what} needs a confirmation at this computer, and nobody can be asked here. ` +
        'Start DeskClaw with it instead (--autonomy full / --runtime native), or set it in the desktop app.',
      { key: 'errors.settings.riskyNeedsConfirmation', params: { what } }
    )
  }
  if (!(await confirm(changes, current.language))) {
    throw new AppError('FORBIDDEN', `Switching to ${what} was not confirmed; nothing changed.`, { key: 'errors.settings.riskyNotConfirmed', params: { what } })
  }
}
