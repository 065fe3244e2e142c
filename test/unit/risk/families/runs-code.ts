/**
 * Issue 21, family 1 — programs that run a file or stdin. An interpreter, REPL or shell given a
 * bare word runs the file of that name (`python NAME` is not a version query); its verbose or
 * debug flags go on to read code from stdin or a pipe. Controls: the version queries each
 * program really answers, alone.
 */
import { benign, cross, dangerous, finish, QUIET_WRAPPERS, rotate, type FamilyCase } from './kit'

const RUNTIMES = ['python', 'python3', 'python3.12', 'node', 'nodejs', 'ruby', 'perl', 'php', 'lua', 'bash', 'sh', 'zsh', 'deno', 'bun']
const NAMES = ['version', 'help', 'V', 'info', 'build/app.js', 'src/index.ts', 'main', '-']

export function runsCodeCases(): FamilyCase[] {
  const bareWords = cross(RUNTIMES, NAMES, (r, n) => `${r} ${n}`)
  const wrapped = RUNTIMES.map((r, i) => `${rotate(QUIET_WRAPPERS, i)} ${r} ${rotate(NAMES, i)}`)
  const verbose = [
    'python -v', 'python3 -v', 'python -d', 'python -i', 'python3 -vv', 'bash -v', 'sh -v', 'bash -x', 'sh -x', 'bash -h',
    'zsh -v', 'ruby -d', 'perl -d', 'perl -w', 'php -a', 'node -i', 'node --inspect', 'lua -i', 'python -u', 'python -B',
    'cat build/app.js | node -v -', 'echo id | python3 -v', 'echo id | bash -v', 'echo id | sh -x', 'echo id | perl -w',
    'python -- version', 'node -- version', 'bash -- version', 'python3 -X dev', 'python -W ignore', 'node --version build/app.js',
    'python --version script.py', 'python3 -m http.server', 'python3 -m version', 'node -r ./x.js -v'
  ]
  const controls = [
    'python --version', 'python3 --version', 'python -V', 'python3 -V', 'node --version', 'node -v', 'ruby --version', 'ruby -v',
    'perl -v', 'perl --version', 'php -v', 'php --version', 'bash --version', 'zsh --version', 'deno --version', 'bun --version',
    'lua -v', 'go version', 'java -version', 'rustc -V', 'cargo -V', 'python3.12 --version'
  ]
  return finish(11, [
    ...dangerous('a runtime given a bare word runs the file of that name', bareWords),
    ...dangerous('a wrapped runtime given a bare word', wrapped),
    ...dangerous('verbose and debug flags read code from stdin', verbose),
    ...benign('version queries each runtime answers', controls)
  ])
}
