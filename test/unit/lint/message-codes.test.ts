import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BrowserToolServices, DesktopToolServices, HardwareToolServices, MessagingToolServices, WebToolServices } from '../../../src/main/tools'
import { createCheckTools, createGitTools, createMemoryTools, createNotifyTools, createSearchTools, type MemoryToolServices, type NotifyToolServices } from '../../../src/main/tools'
import { createScheduleTools, type ScheduleToolServices } from '../../../src/main/tools'
import { createAgentTools, type AgentToolServices } from '../../../src/main/tools'
import { createCodeTools, type CodeToolServices } from '../../../src/main/tools'
import { createBrowserTools, createDesktopTools, createFileTools, createHardwareTools, createMessagingTools, createShellTools, createWebTools } from '../../../src/main/tools'
import { NativeRuntime } from '../../../src/main/runtime'
import { dictionaries } from '../../../src/renderer/src/i18n/translator'
import { ErrorTextKeys, RunnerTextKeys, type ToolMessages } from '../../../src/shared'

/**
 * Every text main shows a person has a message code translated in both languages
 * (docs/architecture.md, "Texts from main"): a tool's `result.…` keys in its own table, the
 * runner's `toolRun.…` and the errors' `errors.…` keys in the UI's dictionaries.
 */
const TOOLS_DIR = join(process.cwd(), 'src', 'main', 'tools')

/** Each pack folder's tools; services are never called while the tools are only listed. */
const unused = {} as never
const PACKS: Record<string, Array<{ name: string; messages: ToolMessages }>> = {
  files: [...createFileTools().tools()],
  shell: [...createShellTools({ runtime: new NativeRuntime() }).tools()],
  desktop: [...createDesktopTools(unused as DesktopToolServices).tools()],
  browser: [...createBrowserTools(unused as BrowserToolServices).tools()],
  hardware: [...createHardwareTools(unused as HardwareToolServices).tools()],
  messaging: [...createMessagingTools(unused as MessagingToolServices).tools()],
  web: [...createWebTools(unused as WebToolServices).tools()],
  memory: [...createMemoryTools(unused as MemoryToolServices).tools()],
  notify: [...createNotifyTools(unused as NotifyToolServices).tools()],
  search: [...createSearchTools().tools()],
  git: [...createGitTools({ runtime: new NativeRuntime() }).tools()],
  checks: [...createCheckTools({ runtime: new NativeRuntime() }).tools()],
  code: [...createCodeTools(unused as CodeToolServices).tools()],
  schedule: [...createScheduleTools(unused as ScheduleToolServices).tools()],
  agents: [...createAgentTools(unused as AgentToolServices).tools()]
}

const RESULT_KEY = /['"`](result\.[\w.-]+)['"`]/g
const DYNAMIC_RESULT_KEY = /`result\.[^`]*\$\{/
const MAIN_TEXT_KEY = /['"`]((?:toolRun|errors)\.[\w.-]+)['"`]/g

interface SourceFile {
  path: string
  text: string
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** A tool's two languages: the same keys, the same placeholders in each, nothing in the runner's namespace. */
export function tableProblems(tool: { name: string; messages: ToolMessages }): string[] {
  const problems: string[] = []
  const en = tool.messages.en
  const zh = tool.messages['zh-CN']
  for (const key of Object.keys(en)) {
    if (!Object.hasOwn(zh, key)) problems.push(`${tool.name}: "${key}" has no zh-CN text`)
    else if (placeholders(en[key]!).join() !== placeholders(zh[key]!).join()) problems.push(`${tool.name}: "${key}" has other {params} in zh-CN`)
    if (key.startsWith('toolRun.')) problems.push(`${tool.name}: "${key}" is in the runner's namespace`)
  }
  for (const key of Object.keys(zh)) if (!Object.hasOwn(en, key)) problems.push(`${tool.name}: "${key}" has no English text`)
  return problems
}

/**
 * The `result.…` keys a pack's files use, each checked against the tables of the tools it can
 * belong to: the tool the file defines (by its literal name, or the pack's only tool), and for a
 * shared file (no defineTool) every tool of the pack.
 */
export function resultKeyProblems(files: SourceFile[], tools: Array<{ name: string; messages: ToolMessages }>): string[] {
  const problems: string[] = []
  for (const file of files) {
    if (DYNAMIC_RESULT_KEY.test(file.text)) problems.push(`${file.path}: a result key built at run time cannot be checked; write each key out`)
    const keys = new Set([...file.text.matchAll(RESULT_KEY)].map((m) => m[1]!))
    if (keys.size === 0) continue
    let owners = tools
    if (file.text.includes('defineTool(')) {
      owners = tools.filter((tool) => new RegExp(`name:\\s*['"\`]${tool.name}['"\`]`).test(file.text))
      if (owners.length === 0 && tools.length === 1) owners = tools
      if (owners.length === 0) problems.push(`${file.path}: defines a tool whose name is not written out`)
    }
    for (const key of keys) {
      for (const tool of owners) {
        for (const language of ['en', 'zh-CN'] as const) {
          if (!Object.hasOwn(tool.messages[language], key)) problems.push(`${file.path}: "${key}" is missing from ${tool.name}'s ${language} messages`)
        }
      }
    }
  }
  return problems
}

/** The runner's and the errors' keys: each in both dictionaries, with the same placeholders, none empty. */
export function dictionaryProblems(keys: readonly string[], languages: Record<string, Record<string, string>>): string[] {
  const problems: string[] = []
  for (const key of keys) {
    const en = languages.en?.[key]
    for (const [language, dictionary] of Object.entries(languages)) {
      const template = dictionary[key]
      if (!template) problems.push(`${language} has no text for "${key}"`)
      else if (en !== undefined && placeholders(template).join() !== placeholders(en).join()) problems.push(`${language} "${key}" has other {params}`)
    }
  }
  return problems
}

describe('message codes from main are translated in both languages', () => {
  it('the checks fire on the shapes they forbid', () => {
    const tool = {
      name: 'sample',
      messages: { en: { title: 'T', 'result.done': 'Done {n}.', 'result.gone': 'Gone' }, 'zh-CN': { title: 'T', 'result.done': '完成。' } }
    }
    expect(tableProblems(tool)).toEqual(['sample: "result.done" has other {params} in zh-CN', 'sample: "result.gone" has no zh-CN text'])
    const file = { path: 'sample.ts', text: "defineTool({ name: 'sample', run: () => withDisplay(ok('x'), text('result.missing')) })" }
    expect(resultKeyProblems([file], [tool])).toEqual([
      `sample.ts: "result.missing" is missing from sample's en messages`,
      `sample.ts: "result.missing" is missing from sample's zh-CN messages`
    ])
    expect(resultKeyProblems([{ path: 'd.ts', text: 'text(`result.${kind}`)' }], [tool])[0]).toMatch(/built at run time/)
    expect(dictionaryProblems(['toolRun.x'], { en: { 'toolRun.x': 'X {tool}' }, 'zh-CN': {} })).toEqual(['zh-CN has no text for "toolRun.x"'])
  })

  it('every pack folder is listed here, so its tools are checked', () => {
    const folders = readdirSync(TOOLS_DIR).filter((name) => statSync(join(TOOLS_DIR, name)).isDirectory())
    expect(folders.sort()).toEqual(Object.keys(PACKS).sort())
  })

  it("every built-in tool's table has the same keys and placeholders in en and zh-CN", () => {
    expect(Object.values(PACKS).flat().flatMap(tableProblems)).toEqual([])
  })

  it("every result key a tool's file uses is in that tool's messages, in both languages", () => {
    const problems = Object.entries(PACKS).flatMap(([pack, tools]) => {
      const files = sourceFiles(join(TOOLS_DIR, pack)).map((path) => ({ path: relative(process.cwd(), path), text: readFileSync(path, 'utf8') }))
      return resultKeyProblems(files, tools)
    })
    expect(problems).toEqual([])
    // The mechanism is in use: the file tools give result lines.
    expect(PACKS.files!.find((t) => t.name === 'file_write')!.messages['zh-CN']['result.wrote']).toMatch(/^已写入/)
  })

  it("the runner's and the errors' keys are in both of the UI's dictionaries", () => {
    const languages = dictionaries as unknown as Record<string, Record<string, string>>
    expect(dictionaryProblems([...RunnerTextKeys, ...ErrorTextKeys], languages)).toEqual([])
  })

  it('every toolRun.… and errors.… key written in main or shared is a declared one', () => {
    const declared = new Set<string>([...RunnerTextKeys, ...ErrorTextKeys])
    const undeclared: string[] = []
    for (const dir of ['src/main', 'src/shared']) {
      for (const path of sourceFiles(join(process.cwd(), dir))) {
        for (const match of readFileSync(path, 'utf8').matchAll(MAIN_TEXT_KEY)) {
          if (!declared.has(match[1]!)) undeclared.push(`${relative(process.cwd(), path)}: ${match[1]}`)
        }
      }
    }
    expect(undeclared).toEqual([])
    expect(basename(TOOLS_DIR)).toBe('tools')
  })
})
