import type { Parser } from 'web-tree-sitter'
import type { Analysis, Mapper, ShellAnalysis, ShellContext, ShellFinding } from './analysis'
import { annotate } from './analysis'
import { scanBashCommands, scanRawTokens } from './critical-scan'
import { crossCheck } from './cross-check'
import { classify } from './judge-command'
import { originalRange, prepareSource } from './source'
import { findErrorNode } from './syntax'
import { walkTree } from './walker'

export type { ShellAnalysis, ShellContext, ShellExplanation, ShellFinding, ShellUnit } from './analysis'

const MAX_INPUT_CHARS = 64 * 1024

/**
 * The shell analysis (docs/risk.md): pre-pass → tree-sitter-bash → every simple
 * command, dequoted and unwrapped → findings. Fails closed: what it does not understand asks.
 *
 * The steps, each in a file of its own: the walk over the tree (walker.ts), the critical
 * catalogue over every view of the text (critical-scan.ts), each simple command layer by layer
 * (judge-command.ts) with its words (word-checks.ts), wrappers (wrapper-checks.ts), programs by
 * their spec tables (program-checks.ts), code runners (code-runners.ts), git (git-checks.ts),
 * find and searches (search-checks.ts), paths and redirections (path-checks.ts), stdin
 * (stdin-checks.ts), downloads (downloads.ts), Windows forms (windows-checks.ts) and the
 * working folders (scope.ts).
 */
export class ShellAnalyzer {
  constructor(private readonly parser: Parser) {}

  analyze(command: string, ctx: ShellContext): ShellAnalysis {
    const analysis = startAnalysis(this.parser, ctx)
    analysis.analyseText(command, 0, (start, end) => ({ start, end }))
    const { scope, evidence } = analysis
    return {
      findings: analysis.findings,
      units: analysis.units,
      programs: [...analysis.programs],
      explain: { cwds: [...new Set(scope.cwds)], globs: evidence.globs, targets: [...evidence.targets], specs: evidence.specs }
    }
  }
}

function startAnalysis(parser: Parser, ctx: ShellContext): Analysis {
  const analysis: Analysis = {
    scope: { ctx, cwds: [ctx.cwd], downloaded: new Set(), findScope: null },
    evidence: { specs: [], globs: [], targets: new Set() },
    findings: [],
    units: [],
    programs: new Set(),
    analyseText: (text, depth, map) => analyseText(analysis, parser, text, depth, map)
  }
  return analysis
}

/** Analyses `text`; `map` turns its offsets into offsets of the outermost command. */
function analyseText(a: Analysis, parser: Parser, text: string, depth: number, map: Mapper): void {
  const add = (f: ShellFinding) => a.findings.push(f)
  if (text.length > MAX_INPUT_CHARS) {
    add({ rule: 'shell.too-long', message: `Commands over ${MAX_INPUT_CHARS / 1024} KB are not analysed.`, verdict: 'ask', ...map(0, 0) })
    return
  }
  if (/[\0]/.test(text)) {
    add({ rule: 'shell.control-char', message: 'The command contains a NUL byte.', verdict: 'ask', ...map(0, text.length) })
  }
  const source = prepareSource(text)
  const toOuter = (start: number, end: number) => {
    const range = originalRange(source, start, end)
    return map(range.start, range.end)
  }
  if (source.spliced) {
    add({ rule: 'shell.line-continuation', message: 'Backslash-newline joins lines; judged as bash joins them.', verdict: 'allow', ...toOuter(0, 0) })
  }
  const tree = parser.parse(source.text)
  if (!tree) {
    add({ rule: 'shell.parse-error', message: 'The command could not be parsed.', verdict: 'ask', ...map(0, text.length) })
    return
  }
  try {
    // The second parser (docs/risk.md): where bash would read the text otherwise, ask.
    const disagreements = crossCheck(text, source, tree.rootNode)
    for (const f of disagreements) add({ ...f, ...map(f.start, f.end) })
    // A desync that hides a catastrophic command is denied, not asked (docs/risk.md, item 9): judge what bash would run.
    if (disagreements.length > 0) scanBashCommands(a.scope, a.findings, text, map)
    const walk = walkTree(tree.rootNode, a.scope.ctx)
    if (tree.rootNode.hasError) {
      const bad = findErrorNode(tree.rootNode) ?? tree.rootNode
      add({ rule: 'shell.parse-error', message: 'Part of the command could not be parsed, so it cannot be judged safe.', verdict: 'ask', ...toOuter(bad.startIndex, bad.endIndex) })
      scanRawTokens(a.scope, a.findings, source, toOuter)
    }
    for (const s of walk.structures) add({ ...s, ...toOuter(s.start, s.end) })
    if (walk.invocations.length === 0 && !walk.understood && !tree.rootNode.hasError && /[^\s#]/.test(stripComments(source.text)) && walk.structures.length === 0) {
      add({ rule: 'shell.empty', message: 'No command was found in the text.', verdict: 'ask', ...map(0, text.length) })
    }
    for (const invocation of walk.invocations) {
      const before = a.evidence.specs.length
      classify(a, invocation, source, toOuter, depth)
      if (invocation.inSubstitution) annotate(a.evidence, before, 'inside $(…)')
      if (invocation.background) annotate(a.evidence, before, 'run in the background with &')
    }
  } finally {
    tree.delete()
  }
}

function stripComments(text: string): string {
  return text.replace(/(^|\s)#[^\n]*/g, '$1')
}
