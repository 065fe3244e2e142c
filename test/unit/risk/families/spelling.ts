/**
 * Issue 21, family 2 — option spelling as the program parses it: GNU getopt and git take any
 * unambiguous prefix of a long option, bundled short options and attached values; env's
 * split-string option in all its spellings. Controls: the same programs with their safe options.
 */
import { benign, dangerous, finish, type FamilyCase } from './kit'

/** Every prefix of `--name` of at least `min` letters, with and without a value. */
function prefixes(program: string, name: string, value: string, min = 3): string[] {
  const out: string[] = []
  for (let n = min; n <= name.length; n++) out.push(`${program} --${name.slice(0, n)}=${value}`, `${program} --${name.slice(0, n)} ${value}`)
  return out
}

export function spellingCases(): FamilyCase[] {
  return finish(12, [
    ...dangerous('sort --output and --compress-program by prefix', [...prefixes('sort', 'output', 'x.txt README.md'), ...prefixes('sort', 'compress-program', 'sh README.md', 4)]),
    ...dangerous('git log --output by prefix', [...prefixes('git log', 'output', 'x.patch'), ...prefixes('git diff', 'output', '/tmp/x'), ...prefixes('git show', 'output', 'x')]),
    ...dangerous('git branch changes by prefix and bundle', [
      ...prefixes('git branch', 'set-upstream-to', 'origin/main', 5), ...prefixes('git branch', 'unset-upstream', '', 3).map((c) => c.replace(/[= ]$/, '')),
      'git branch --edit-descr', 'git branch --edit-description', 'git branch -vd old', 'git branch -vD old', 'git branch -vu origin/x', 'git branch -avm new',
      'git branch -fc a b', 'git tag -ad v1', 'git tag -fs v1', 'git branch --del old', 'git branch --mov a b', 'git branch --cop a b'
    ]),
    ...dangerous('bundles hiding a writing letter', [
      'sort -uo x README.md', 'sort -ruo x README.md', 'sort -nro out.txt README.md', 'sort -o/tmp/x README.md', 'sort -uox README.md',
      'tree -ao out.txt', 'tree -Co x', 'xxd -rp x.hex', 'xxd -pr x', 'date -us 2020-01-01', 'date -s2020-01-01', 'sed -ni p README.md',
      'sed -in 1p README.md', 'sed -n -i 1p README.md', 'sed -nes/a/b/w/tmp/x README.md', 'rg -z foo', 'rg -iz foo', 'rg --pre=sh foo',
      'rg --pre sh foo', 'rg --pr=sh foo', 'rg --search-z foo', 'rg --hostname-b=sh foo', 'file -C -m x', 'file -zC', 'printf -vx %s 1'
    ]),
    ...dangerous('env split-string in all its spellings', [
      "env -S 'ls -la'", 'env -S"ls -l"', "env -S'ls'", "env --split-string='ls'", "env --split-string 'ls'", "env --split-str='ls'",
      "env --split='ls'", "env --spl 'ls'", "env -iS 'ls'", "env -vS 'ls'", "env -uX -S 'ls'", "env -0S 'ls'", "env -S 'sh -c id'",
      "env -S'git status'", "env --split-s='rm -rf build'"
    ]),
    ...benign('the same programs with safe spellings', [
      'sort -u README.md', 'sort -rn README.md', 'sort -k2 README.md', 'sort -t, -k2n README.md', 'git log --oneline -n5', 'git log -n 5 --stat',
      'git diff --stat', 'git branch -a', 'git branch -vv', 'git branch --list', 'git tag -l', 'tree -a', 'tree -L 2', 'date -u', 'date +%s',
      'sed -n 1,20p README.md', 'rg -n answer src', 'rg -i answer src', 'xxd -l 16 README.md', 'head -n5 README.md', 'tail -n 3 README.md',
      'git show --stat HEAD', 'git log --format=%h HEAD', 'git diff --name-only', 'wc -lw README.md', 'ls -la', 'ls -lah src', 'cut -d: -f1 README.md'
    ])
  ])
}
