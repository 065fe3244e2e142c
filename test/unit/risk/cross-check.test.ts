import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { loadCrossCheck, readBashView, type CrossCheckFinding } from '../../../src/main/risk/shell/cross-check'
import { shellCases } from './shell-cases'

/**
 * The second parser (docs/risk.md, "A second, independent parser"): where tree-sitter-bash and
 * bash disagree on where a command, a word or a comment begins, the command asks.
 */

const CROSS_CHECK_RULES = new Set(['shell.parser-disagreement', 'shell.comment-boundary', 'shell.control-char'])

let engine: RiskEngine
let workspace: string
let crossCheck: (command: string) => CrossCheckFinding[]

beforeAll(async () => {
  engine = await RiskEngine.create({ home: '/home/tester' })
  workspace = mkdtempSync(join(tmpdir(), 'deskclaw-cross-check-'))
  crossCheck = await loadCrossCheck()
})

const assess = (command: string) => engine.assessShell(command, { workspace, autonomy: 'supervised' })
const rulesOf = (command: string) => new Set(assess(command).findings.map((f) => f.rule))
const show = (command: string) => JSON.stringify(command)

describe('desyncs between tree-sitter-bash and bash ask', () => {
  // tree-sitter reads a comment after the blank-looking character; bash reads one word and runs `rm`.
  const desyncs: Array<[what: string, command: string, rules: string[]]> = [
    ['backslash, tab, #', 'echo a\\\t#;rm -rf build', ['shell.comment-boundary', 'shell.parser-disagreement']],
    ['CR before #', 'echo a\r#;rm -rf build', ['shell.control-char', 'shell.comment-boundary', 'shell.parser-disagreement']],
    ['vertical tab before #', 'echo a\v#;rm -rf build', ['shell.control-char', 'shell.comment-boundary', 'shell.parser-disagreement']],
    ['form feed before #', 'echo a\f#;rm -rf build', ['shell.control-char', 'shell.comment-boundary', 'shell.parser-disagreement']],
    ['CR after a blank, before #', 'echo a \r#;rm -rf build', ['shell.control-char', 'shell.comment-boundary', 'shell.parser-disagreement']],
    ['escape, CR, # (tree-sitter fails)', 'echo a\\\r#;rm -rf build', ['shell.control-char']],
    ['CR LF line ends', 'ls\r\nrm -rf build\r\n', ['shell.control-char', 'shell.parser-disagreement']],
    // The pre-pass joins `\`-CR-LF like `\`-LF, but bash does not: the LF still ends the command.
    ['backslash, CR, LF is no continuation', 'echo a\\\r\nrm -rf build', ['shell.control-char', 'shell.parser-disagreement']],
    // A quoted heredoc's body is not joined: its `x\` line does not hide the delimiter after it.
    ['quoted heredoc ending after a backslash line', "cat <<'EOF'\nx\\\nEOF\nrm -rf build\nEOF", ['shell.parser-disagreement']]
  ]

  it.each(desyncs)('%s: %j', (_what, command, rules) => {
    const assessment = assess(command)
    expect(assessment.verdict, show(command)).not.toBe('allow')
    const found = new Set(assessment.findings.map((f) => f.rule))
    for (const rule of rules) expect(found, `${show(command)} should report ${rule}`).toContain(rule)
  })

  it('the findings point at the text that runs or the character that hides it', () => {
    const command = 'echo a\r#;rm -rf build'
    const findings = assess(command).findings.filter((f) => CROSS_CHECK_RULES.has(f.rule))
    const spans = findings.map((f) => command.slice(f.span!.start, f.span!.end))
    expect(spans).toContain('\r')
    expect(spans).toContain('#;rm -rf build')
    expect(spans.some((s) => s.includes('rm -rf build'))).toBe(true)
  })

  // Neighbours where both parsers agree: no cross-check finding, and the `rm` both see still asks.
  const agreeing: Array<[what: string, command: string]> = [
    ['backslash, space, #', 'echo a\\ #;rm -rf build'],
    ['# inside a word', 'echo a#;rm -rf build'],
    ['# after a quote', 'echo "a"#;rm -rf build'],
    ['escaped #', 'echo \\#;rm -rf build'],
    ['${x#y}', 'echo ${x#y};rm -rf build'],
    ['$#', 'echo $#;rm -rf build'],
    ['${#x}', 'echo ${#x};rm -rf build'],
    ['# after a tab', 'echo a\t#;rm -rf build'.replace(';rm -rf build', '\nrm -rf build')],
    ['# after ;', 'echo a;#x\nrm -rf build']
  ]

  it.each(agreeing)('%s: %j reads the same in both and still asks', (_what, command) => {
    const assessment = assess(command)
    expect(assessment.verdict, show(command)).toBe('ask')
    expect(assessment.findings.map((f) => f.rule)).toContain('shell.writes')
    expect(crossCheck(command), show(command)).toEqual([])
  })

  it('a word with # inside is no comment in either parser, and plain text is still allowed', () => {
    for (const command of ['echo a#b', 'echo a\\ #b', 'grep -c "#" README.md', "grep -n '# TODO' README.md", 'ls # a comment']) {
      expect(crossCheck(command), show(command)).toEqual([])
      expect(assess(command).verdict, show(command)).toBe('allow')
    }
  })

  it('control characters inside quotes are data', () => {
    for (const command of ['echo "a\rb"', "echo 'a\vb'", "printf '\x1b[1m'", 'cat <<EOF\na\rb\nEOF']) {
      expect(crossCheck(command).filter((f) => f.rule === 'shell.control-char'), show(command)).toEqual([])
    }
    for (const command of ['ls\x7f', 'echo a\x1bb', 'cat a #\r']) {
      expect(rulesOf(command), show(command)).toContain('shell.control-char')
    }
  })
})

describe('everyday commands never disagree', () => {
  const benign = [...new Set(shellCases.filter((c) => c.group === 'benign').map((c) => c.command))]

  it('the benign corpus is big enough to mean something', () => {
    expect(benign.length).toBeGreaterThanOrEqual(60)
  })

  it.each(benign)('%j', (command) => {
    const findings = assess(command).findings.filter((f) => CROSS_CHECK_RULES.has(f.rule))
    expect(findings).toEqual([])
  })

  // Constructs the engine asks about for other reasons: the two parsers still read them alike.
  const constructs = [
    'ls | grep src && git status; pwd',
    'ls || echo none & wait',
    '(cd src && ls) | wc -l',
    '{ ls; pwd; } > out.txt 2>&1',
    'echo $(git rev-parse HEAD) "$(date +%s)" `pwd`',
    'diff <(ls src) <(ls build)',
    "cat <<EOF\nhello $(whoami)\nEOF\nls",
    "cat <<'EOF' | wc -l\n$(not run)\nEOF",
    'cat <<-EOF\n\tindented\n\tEOF',
    'grep x <<< "a b"',
    'ls *.md src/**/*.ts {a,b}.txt ~/x [ab]*',
    'ls > /dev/null 2>&1 && ls &>/dev/null; ls 2>/dev/null >>log',
    'LC_ALL=C A="x y" sort README.md',
    'export A=1 B; unset C; declare -a d=(1 2 3); local e',
    'for f in *.ts; do wc -l "$f"; done',
    'for ((i = 0; i < 3; i++)); do echo $i; done',
    'while read -r line; do echo "$line"; done < README.md',
    'if [ -d src ]; then ls src; elif [[ -f a && b < c ]]; then :; else pwd; fi',
    'case "$1" in a|b) ls;; (c) pwd;; *) echo no;; esac',
    'f() { ls; }; function g { pwd; }; f && g',
    '(( x = 1 + 2 )) && echo $(( x * 2 ))',
    '[[ $x =~ ^(a|b)+$ ]] && echo match',
    "echo $'a\\tb' ${x:-default} ${#x} ${x#*/} $# $? $$",
    'find . -name "*.ts" -exec grep -l TODO {} + | xargs -I{} echo {}',
    'git log --format="%h %s" -n 5 | sed -n "1,3p" # first three',
    'echo a\\\nb && ls \\\n  -la',
    'ls \\\n# a comment after a continuation',
    'time ls; ! ls; coproc ls'
  ]

  it.each(constructs)('%j', (command) => {
    expect(crossCheck(command)).toEqual([])
  })
})

describe('the bash tokenizer', () => {
  const commands = (text: string) => readBashView(text).commands.map((c) => c.words.map((w) => text.slice(w.start, w.end)).join(' '))
  const comments = (text: string) => readBashView(text).comments.map((c) => text.slice(c.start, c.end))

  it('finds the simple commands inside lists, groups and substitutions', () => {
    expect(commands('ls -la && git status | head -n 3; (cd src) && { pwd; }')).toEqual(['ls -la', 'git status', 'head -n 3', 'cd src', 'pwd'])
    expect(commands('echo "$(ls)" `pwd` <(id)')).toEqual(['echo "$(ls)" `pwd` <(id)', 'ls', 'pwd', 'id'])
    expect(commands('A=1 >out ls x 2>&1')).toEqual(['ls x'])
    expect(commands('if ls; then pwd; fi; for x in a b; do id; done; case y in y) who;; esac')).toEqual(['ls', 'pwd', 'id', 'who'])
  })

  it('starts a comment only where a word would start', () => {
    expect(comments('ls # c')).toEqual(['# c'])
    expect(comments('echo a#b ${x#y} $# \\#x "#" \'#\'')).toEqual([])
    expect(comments('echo a;#c\nls')).toEqual(['#c'])
    expect(comments('echo a\\ #b')).toEqual([])
    expect(comments('echo a\\\t#b')).toEqual([])
    expect(comments('echo a\r#b')).toEqual([])
  })

  it('joins backslash-newline where bash does, and only there', () => {
    expect(commands('ec\\\nho a\\\nb')).toEqual(['ec\\\nho a\\\nb'])
    expect(commands('echo "$\\\n(id)"')).toEqual(['echo "$\\\n(id)"', 'id'])
    expect(commands("echo 'a\\\nb'")).toEqual(["echo 'a\\\nb'"])
    expect(commands('ls # c\\\npwd')).toEqual(['ls', 'pwd'])
    expect(commands('echo a\\\r\npwd')).toEqual(['echo a\\\r', 'pwd'])
  })

  it('reads heredoc bodies as data, but runs substitutions in unquoted ones', () => {
    expect(commands('cat <<EOF\nls $(id)\nEOF\npwd')).toEqual(['cat', 'id', 'pwd'])
    expect(commands("cat <<'EOF'\nls $(id)\nEOF\npwd")).toEqual(['cat', 'pwd'])
  })

  it('reports what bash would not finish reading', () => {
    expect(readBashView('echo "a').incomplete?.what).toMatch(/double quote/)
    expect(readBashView('echo $(ls').incomplete?.what).toMatch(/never closed/)
    expect(readBashView('echo ' + '$('.repeat(500) + ')'.repeat(500)).incomplete?.what).toMatch(/too deep/)
  })
})
