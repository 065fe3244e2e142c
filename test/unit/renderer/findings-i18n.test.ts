import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { ToolCategories } from '../../../src/main/tools'
import { findingText } from '../../../src/renderer/src/i18n/findings'
import { shellCases } from '../risk/shell-cases'

describe('risk findings in Simplified Chinese', () => {
  it('every rule the engine reports over the whole corpus, at every autonomy level, has a translation', async () => {
    const engine = await RiskEngine.create({ home: '/home/tester' })
    const workspace = mkdtempSync(join(tmpdir(), 'deskclaw-i18n-'))
    const rules = new Set<string>()
    for (const { command } of shellCases) {
      for (const autonomy of ['readonly', 'supervised', 'full'] as const) {
        for (const finding of engine.assessShell(command, { workspace, autonomy }).findings) rules.add(finding.rule)
      }
    }
    for (const category of ToolCategories) if (category !== 'fs_read' && category !== 'network_read') rules.add(`tool.${category}`)
    for (const source of ['user', 'project', 'saved']) rules.add(`rule.${source}`)
    expect(rules.size).toBeGreaterThan(40)
    const missing = [...rules].filter((rule) => findingText(rule, 'zh-CN') === null)
    expect(missing).toEqual([])
  })

  it('English keeps the engine’s own, more specific message', () => {
    expect(findingText('shell.writes', 'en')).toBeNull()
  })
})

describe('approval previews in Simplified Chinese', () => {
  it('translates titles, labels, the runtime line and why "always" is not offered; code stays exact', async () => {
    const { previewText, previewValue, alwaysBlockedText } = await import('../../../src/renderer/src/i18n/findings')
    expect(previewText('Run a shell command', 'zh-CN')).toBe('运行 shell 命令')
    expect(previewText('Command', 'zh-CN')).toBe('命令')
    expect(previewText('Command', 'en')).toBe('Command')
    expect(previewValue('Runs in', 'native (no sandbox: runs directly on this computer)', 'zh-CN')).toMatch(/^native（无沙箱/)
    expect(previewValue('Command', 'rm -rf build', 'zh-CN')).toBe('rm -rf build')
    expect(alwaysBlockedText('"python3" runs other code, so it is never allowed always.', 'zh-CN')).toContain('python3')
  })
})
