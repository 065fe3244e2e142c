import { isAbsolute, relative, sep } from 'node:path'

/** One problem a checker reported, at a place in a file. */
export interface Diagnostic {
  file: string
  line?: number
  column?: number
  severity: 'error' | 'warning'
  message: string
  rule?: string
}

/** eslint's default ("stylish") formatter: a file path line, then `  12:5  error  Message  rule-id`. */
const ESLINT_FILE = /^(\/\S.*|[A-Za-z]:\\.*)$/
const ESLINT_ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?\s*$/
/** tsc without --pretty (what it prints to a pipe): `src/a.ts(3,7): error TS2322: …`; with it, `src/a.ts:3:7 - error TS2322: …`. */
const TSC_PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/
const TSC_PRETTY = /^(.+?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/
/** ruff's concise format, go vet, gcc and most others: `path:line:col: message`. */
const FILE_LINE_COL = /^(\.{0,2}\/?[\w./@+-]+\.\w+):(\d+):(?:(\d+):)? (.*)$/
/** pytest: a failing test's section header, and the traceback line that points into the test file. */
const PYTEST_SECTION = /^_{3,} (\S+) _{3,}$/
const PYTEST_LOCATION = /^([\w./-]+\.py):(\d+): (\w+)$/
const PYTEST_ERROR_LINE = /^E\s+(.*)$/
/** Terminal colour codes (tsc --pretty and others colour their output when they think they can). */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/**
 * The diagnostics in a checker's output, from the formats DeskClaw knows (docs/tools.md, "lint"):
 * eslint's stylish, tsc's plain and pretty, pytest's failure sections, and `path:line:col: message`
 * (ruff concise, go vet, cargo short, gcc). Paths come back relative to the workspace.
 */
export function parseDiagnostics(output: string, workspace: string): Diagnostic[] {
  const found: Diagnostic[] = []
  const lines = output.split(/\r?\n/)
  let eslintFile: string | null = null
  let pytestTest: string | null = null
  let pytestError: string | null = null
  for (const raw of lines) {
    const line = raw.replace(COLOUR, '')
    let m: RegExpExecArray | null
    if ((m = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line))) {
      found.push({ file: m[1]!, line: +m[2]!, column: +m[3]!, severity: m[4] as 'error', message: m[6]!, rule: m[5]! })
      continue
    }
    if (ESLINT_FILE.test(line)) {
      eslintFile = line.trim()
      continue
    }
    if (eslintFile && (m = ESLINT_ROW.exec(line))) {
      found.push({ file: eslintFile, line: +m[1]!, column: +m[2]!, severity: m[3] as 'error', message: m[4]!, ...(m[5] ? { rule: m[5] } : {}) })
      continue
    }
    if (line.trim() === '') eslintFile = null
    if ((m = PYTEST_SECTION.exec(line))) {
      pytestTest = m[1]!
      pytestError = null
      continue
    }
    if (pytestTest && (m = PYTEST_ERROR_LINE.exec(line))) {
      pytestError ??= m[1]!.trim()
      continue
    }
    if (pytestTest && (m = PYTEST_LOCATION.exec(line))) {
      found.push({ file: m[1]!, line: +m[2]!, severity: 'error', message: `${pytestTest} failed: ${pytestError ?? m[3]!}`, rule: m[3]! })
      continue
    }
    if ((m = FILE_LINE_COL.exec(line))) {
      const rest = m[4]!
      const coded = /^(?:(error|warning)(?:\[(\w+)\])?: )?(?:([A-Z]+\d+) )?(.*)$/.exec(rest)!
      found.push({
        file: m[1]!,
        line: +m[2]!,
        ...(m[3] ? { column: +m[3] } : {}),
        severity: coded[1] === 'warning' ? 'warning' : 'error',
        message: coded[4]!,
        ...((coded[3] ?? coded[2]) ? { rule: coded[3] ?? coded[2] } : {})
      })
    }
  }
  return found.map((d) => ({ ...d, file: shown(d.file, workspace) }))
}

function shown(file: string, workspace: string): string {
  const rel = isAbsolute(file) ? relative(workspace, file) : file.replace(/^\.\//, '')
  return rel.split(sep).join('/')
}

/** One line per diagnostic, the compact list the model gets: `src/a.ts:3:7 error Message [rule]`. */
export function formatDiagnostic(d: Diagnostic): string {
  const place = [d.file, d.line, d.column].filter((part) => part !== undefined).join(':')
  return `${place} ${d.severity} ${d.message}${d.rule ? ` [${d.rule}]` : ''}`
}
