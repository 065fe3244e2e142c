/**
 * PowerShell and cmd forms inside a bash-parsed line (docs/risk.md, items 5, 6 and 10): their
 * reads judged by their own spec tables with their own token rules (quotes only group, `\` is a
 * folder separator), the Windows catalogue on their deletes and formats, and what flows down a
 * Windows pipeline (`gci C:\Windows -Recurse | Remove-Item`).
 */
import type { Analysis, AddFinding, Invocation } from './analysis'
import { rawText } from './analysis'
import { finishUnit, type CommandJudgement } from './command-judgement'
import { basenameOf } from './critical'
import { checkOnePath, checkPaths } from './path-checks'
import { FETCHERS } from './programs'
import { matchSpec, type ProgramSpec } from './spec'
import { isCriticalWindowsTarget, isWindowsProgram, unquote, windowsHit } from './windows'
import type { Word } from './words'

/** A PowerShell or cmd read (`Get-Content`, `dir /s`): its spec, then its paths as cmd and PowerShell get them. */
export function judgeWindowsRead(a: Analysis, j: CommandJudgement, argv: Word[], raw: string[], lowerProgram: string, windowsSpec: ProgramSpec): void {
  const { add, unitAdd, inv } = j
  const head = argv[0]!
  // Words as PowerShell and cmd get them: quotes only group.
  const match = matchSpec(lowerProgram, windowsSpec, argv.slice(1).map((w, k) => (w.value === null ? null : unquote(raw[k + 1] ?? ''))))
  if (!match.ok) unitAdd('shell.unknown-option', `${match.why}.`, 'ask', head)
  else a.evidence.specs.push(match.entry)
  const windowsRead = windowsSpec.reads
  j.variablesRead = windowsRead
  checkPaths(a, argv, add, false, windowsRead)
  // Windows paths as written (`..\\.netrc`): bash's unescaping of the backslashes is not what cmd sees.
  for (let k = 1; k < argv.length; k++) {
    const written = unquote(raw[k] ?? '')
    if (written.includes('\\') && !written.startsWith('-') && !/^\/[a-z]/i.test(written)) checkOnePath(a, written.replace(/\\/g, '/'), argv[k]!, add, false, windowsRead)
  }
  // `Get-ChildItem -Recurse ~ | Select-String x` reads what the listing names.
  const lister = inv.pipedFrom.at(-1)
  if (windowsRead === 'contents' && lister && /^(get-childitem|gci|ls|dir)$/i.test(lister.words[0]?.value ?? '')) {
    checkPaths(a, lister.words, add, false, 'contents')
  }
  finishUnit(a, j, argv)
}

/**
 * A Windows program (or `rm -Recurse`) through the Windows catalogue; downloaded code piped into
 * Invoke-Expression. True when the catalogue decided the unit.
 */
export function judgeWindowsProgram(a: Analysis, j: CommandJudgement, argv: Word[], raw: string[], lowerProgram: string): boolean {
  const { add, unitAdd, inv } = j
  const head = argv[0]!
  if (!isWindowsProgram(lowerProgram) && !(lowerProgram === 'rm' && raw.some((r) => /^-recurse$/i.test(r)))) return false
  const win = windowsHit(raw)
  if ((lowerProgram === 'iex' || lowerProgram === 'invoke-expression') && inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) {
    add('shell.critical.remote-code', 'Downloads code and pipes it into Invoke-Expression.', 'deny', head)
  }
  if (!win) return false
  const where = argv[win.argIndex] ?? head
  if (win.verdict === 'deny') add(win.rule, win.message, 'deny', where)
  else unitAdd(win.rule, win.message, win.verdict, where)
  finishUnit(a, j, argv)
  return true
}

/** Windows pipelines whose danger is in what flows in: `gci C:\\Windows -Recurse | Remove-Item`, shadow copies to Remove-WmiObject. */
export function checkWindowsPipeline(program: string, inv: Invocation, head: Word, add: AddFinding): void {
  const upstream = inv.pipedFrom.at(-1)?.words.map((w) => unquote(rawText(w))) ?? []
  if (upstream.length === 0) return
  const source = (upstream[0] ?? '').toLowerCase()
  if (/^(remove-item|ri|rm|del|erase|rd|rmdir)$/.test(program) && /^(get-childitem|gci|ls|dir)$/.test(source)) {
    const target = upstream.slice(1).find(isCriticalWindowsTarget)
    if (target) add('shell.critical.rm-root', `Deletes everything ${upstream[0]} lists under ${target}.`, 'deny', head)
  }
  if (/^(remove-wmiobject|remove-ciminstance|rwmi)$/.test(program) && upstream.some((t) => /shadowcopy/i.test(t))) {
    add('shell.critical.backups', 'Deletes the shadow copies (backups) of the system.', 'deny', head)
  }
}

/**
 * `cmd /c rd /s /q C:\\`, `powershell -Command "Remove-Item -Recurse C:\\Windows"`: the inline text
 * is judged by the Windows catalogue with cmd's and PowerShell's own token rules (quotes only group).
 */
export function checkWindowsInline(interpreter: string, argv: Word[], add: AddFinding): void {
  if (interpreter !== 'cmd' && interpreter !== 'pwsh' && interpreter !== 'powershell') return
  const raw = argv.map((w) => rawText(w))
  const flag = raw.findIndex((r, i) => i > 0 && /^([/-](c|k|r|command|encodedcommand|ec|e))$/i.test(r))
  if (flag < 0) return
  const text = raw.slice(flag + 1).join(' ').replace(/^(['"])([\s\S]*)\1$/, '$2')
  for (const statement of text.split(/&&|\|\||[;&|\n]/)) {
    const tokens = statement.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? []
    if (tokens.length === 0) continue
    const hit = windowsHit(tokens)
    if (hit?.verdict === 'deny') return add(hit.rule, `${hit.message} (inside ${basenameOf(argv[0]!.value ?? interpreter)})`, 'deny', argv[flag]!)
  }
}
