/**
 * Issue 21, family 3 — git beyond the workspace's own repository: subcommands whose options write
 * files (`--output` on the log family, branch description editing, upstream changes); git run in
 * another repository (a nested one reached by cd, a bare one reached by -C) whose config can run
 * programs; secret-shaped files read from history by pathspec glob.
 */
import { benign, cross, dangerous, finish, type FamilyCase } from './kit'

export function gitBeyondCases(): FamilyCase[] {
  const reads = ['status', 'log --oneline', 'diff', 'show HEAD', 'branch', 'ls-files', 'rev-parse HEAD', 'grep foo', 'blame README.md', 'describe --tags']
  const nested = cross(['cd vendor/lib && git', 'cd vendor/lib; git', 'git -C vendor/lib', 'pushd vendor/lib && git', 'env -C vendor/lib git'], reads.slice(0, 7), (pre, r) => `${pre} ${r}`)
  const bare = cross(['git -C ~/repos/bare.git', 'git -C ../repos/bare.git', 'cd ~/repos/bare.git && git', 'git --git-dir=../repos/bare.git'], reads.slice(0, 6), (pre, r) => `${pre} ${r}`)
  const pathspecs = cross(
    ['git log -p --', 'git show HEAD --', 'git diff HEAD~3 --', 'git log --all -p --', 'git grep token --', 'git log -p'],
    ["'*.env'", "'.env*'", "'*.pem'", "'**/id_rsa'", "'*.key'", "':(glob)**/.env'", "'*credentials*'", "'.dev.vars'", "'*secret*'", "':!src'"],
    (c, p) => `${c} ${p}`
  )
  const writes = [
    'git log --output=x.txt', 'git diff --output=/tmp/d', 'git show --output x HEAD', 'git whatchanged --output=x', 'git rev-list --output=x HEAD',
    'git shortlog --output=x HEAD', 'git branch --edit-description', 'git branch --set-upstream-to=origin/main', 'git branch -u origin/main',
    'git branch --unset-upstream', 'git branch --track x origin/x', 'git remote set-url origin x', 'git remote add x y', 'git stash',
    'git stash drop', 'git stash clear', 'git worktree add ../x', 'git tag v9', 'git config user.name x', 'git notes add -m x'
  ]
  return finish(13, [
    ...dangerous('git in a nested repository whose config runs programs', nested),
    ...dangerous('git in a bare repository whose config runs programs', bare),
    ...dangerous('secret-shaped files read from history by pathspec glob', pathspecs),
    ...dangerous('subcommands whose options write', writes),
    ...benign('git in the workspace, reading', ['git status', 'git log --oneline -n 3', 'git diff --stat', 'git show --stat HEAD', 'git branch -a', 'git ls-files',
      'git log -p -- src', "git log -p -- 'src/*.ts'", 'git diff HEAD~1 -- README.md', 'git rev-parse --show-toplevel', 'git -C src status', 'cd src && git status'])
  ])
}
