import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Nothing outside a tool's own file knows a tool by name or guesses its argument names
 * (docs/architecture.md, "Adding a tool"): the core judges, shows and translates tools by what
 * they declare. Tool files live in pack folders, src/main/tools/<pack>/.
 */
const TOOL_FILES = join('src', 'main', 'tools') + sep

const FORBIDDEN: Array<{ why: string; pattern: RegExp }> = [
  { why: 'compares a tool name with a literal', pattern: /\b\w*[tT]ool(?:Name)?\w*(?:\.\w+)*\s*[!=]==?\s*['"`][\w.-]+['"`]/ },
  { why: 'compares a literal with a tool name', pattern: /['"`][\w.-]+['"`]\s*[!=]==?\s*[\w.]*[tT]ool(?:Name)?\b/ },
  { why: 'reads a named argument of a tool call', pattern: /\w\.args\s*(?:\.\s*\w+|\[\s*['"`])/ },
  { why: 'switches on a tool name', pattern: /switch\s*\(\s*[\w.]*\b(?:tool|toolName)\s*\)/ }
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

/** A file directly in src/main/tools/ is core (registry, definition); one in a pack folder is a tool's own. */
function isToolFile(path: string): boolean {
  const inTools = relative(process.cwd(), path)
  return inTools.startsWith(TOOL_FILES) && inTools.slice(TOOL_FILES.length).includes(sep)
}

describe('tool knowledge stays in the tool', () => {
  it('the patterns fire on the shapes they forbid', () => {
    const samples = [
      "if (call.tool === 'shell') return",
      "const hint = toolName === 'file_read' ? a : b",
      "if ('shell' !== definition.tool) x()",
      'const path = call.args.path',
      "const value = question.args['command']",
      'switch (event.tool) {'
    ]
    for (const sample of samples) expect(FORBIDDEN.some(({ pattern }) => pattern.test(sample)), sample).toBe(true)
    expect(FORBIDDEN.some(({ pattern }) => pattern.test("if (event.kind === 'agent') return"))).toBe(false)
  })

  it('no core, bridge, store, CLI or renderer file knows a tool by name or its argument names', () => {
    const offences: string[] = []
    for (const file of sourceFiles(join(process.cwd(), 'src'))) {
      if (isToolFile(file)) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (/^\s*(\*|\/\/)/.test(line)) return // comments may name examples
          for (const { why, pattern } of FORBIDDEN) {
            if (pattern.test(line)) offences.push(`${relative(process.cwd(), file)}:${index + 1} ${why}: ${line.trim()}`)
          }
        })
    }
    expect(offences).toEqual([])
  })

  it('the fallback summary names no argument', () => {
    const summary = readFileSync(join(process.cwd(), 'src/shared/tool-summary.ts'), 'utf8')
    expect(summary).not.toMatch(/['"](command|cmd|argv|path|file|filePath|url|query|app|device|port|target|to|text)['"]/)
  })
})
