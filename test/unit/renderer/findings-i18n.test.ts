import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RiskEngine, ToolCategories, UrlGuardian } from '../../../src/main/risk'
import { NativeRuntime } from '../../../src/main/runtime'
import { createFileTools, createShellTools } from '../../../src/main/tools'
import { findingText } from '../../../src/renderer/src/i18n/findings'
import { previewAsText } from '../../../src/shared/tool-text'
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
    for (const category of ToolCategories) {
      for (const access of ['write', 'execute']) rules.add(`tool.${category}_${access}`)
    }
    for (const source of ['user', 'project', 'saved']) rules.add(`rule.${source}`)
    // The runner's own, when the re-judgement before the run finds the files swapped (docs/risk.md, "At run time").
    rules.add('run.changed-since-asked')
    // The file-object checks fire only on real hard links and FIFOs, which the corpus does not make.
    for (const rule of ['path.hard-link', 'path.special-file', 'shell.redirect-unknown']) rules.add(rule)
    // URL subjects (docs/risk.md, "Network"): every rule the URL guardian gives.
    const urls = new UrlGuardian({ domainRules: () => [{ pattern: 'deny.test', decision: 'deny' }, { pattern: 'ask.test', decision: 'ask' }] })
    const web = await RiskEngine.create({ home: '/home/tester', urls })
    for (const url of ['http://127.0.0.1/', 'https://example.com/', 'ftp://example.com/', 'nonsense', 'https://deny.test/', 'https://ask.test/']) {
      const subject = { kind: 'url' as const, value: url, arg: 'url' }
      for (const finding of web.assess({ tool: 'fetcher', category: 'network', access: 'read', subject }, { workspace, autonomy: 'supervised' }).findings) rules.add(finding.rule)
    }
    expect(rules.size).toBeGreaterThan(40)
    const missing = [...rules].filter((rule) => findingText(rule, 'zh-CN') === null)
    expect(missing).toEqual([])
  })

  it('English keeps the engine’s own, more specific message', () => {
    expect(findingText('shell.writes', 'en')).toBeNull()
  })
})

describe('approval previews in Simplified Chinese', () => {
  const builtins = () => [...createFileTools().tools(), ...createShellTools({ runtime: new NativeRuntime() }).tools()]

  it('renders the real shell tool’s preview through its own messages; the command stays exact', async () => {
    const tool = createShellTools({ runtime: new NativeRuntime() }).tools()[0]!
    const preview = await tool.preview({ command: 'rm -rf build' }, { workspace: '/ws' })
    const zh = previewAsText(preview, tool.messages, 'zh-CN')
    expect(zh.title).toBe('运行 shell 命令')
    const command = preview.fields.findIndex((field) => field.label.key === 'command')
    expect(command).not.toBe(-1)
    expect(zh.fields[command]!.value).toBe('rm -rf build')
    const runsIn = preview.fields.findIndex((field) => field.label.key === 'runsIn')
    expect(runsIn).not.toBe(-1)
    expect(zh.fields[runsIn]!.value.startsWith('native（无沙箱')).toBe(true)
  })

  it('every built-in tool has the same message keys in Simplified Chinese as in English', () => {
    const tools = builtins()
    expect(tools.length).toBeGreaterThanOrEqual(5)
    for (const tool of tools) {
      expect({ tool: tool.name, keys: Object.keys(tool.messages['zh-CN']).sort() }).toEqual({
        tool: tool.name,
        keys: Object.keys(tool.messages.en).sort()
      })
    }
  })

  it('the findings table translates by rule id only: no pattern over English text', () => {
    const source = readFileSync(join(__dirname, '../../../src/renderer/src/i18n/findings.ts'), 'utf8')
    expect(source).not.toMatch(/\/\^|\.exec\(|new RegExp/)
  })
})
