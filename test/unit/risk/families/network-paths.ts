/**
 * Issue 21, family 5 — other machines are network: UNC paths, `/net/HOST/…` automounts and the
 * like are reads from another machine, never silent. Controls: local paths of the same shape.
 */
import { benign, cross, dangerous, finish, type FamilyCase } from './kit'

export function networkPathsCases(): FamilyCase[] {
  const remote = [
    '//fileserver/share/notes.txt', '//10.0.0.5/c$/x.txt', '\\\\\\\\fileserver\\\\share\\\\notes.txt', "'\\\\fileserver\\share\\notes.txt'",
    '"//fileserver/share/notes.txt"', '/net/fileserver/home/x.txt', '/net/10.0.0.5/export/x', '/Network/Servers/fs/Users/x.txt', '/afs/cell/user/x',
    '/home/../net/fs/x.txt', "'//fileserver/share'"
  ]
  return finish(15, [
    ...dangerous('reading from another machine', cross(['cat', 'head', 'ls', 'wc -l', 'grep x', 'stat'], remote, (r, p) => `${r} ${p}`)),
    ...benign('local paths of the same shape', ['cat ./notes.md', 'ls src', 'ls docs', 'cat src//index.ts', 'ls ./src/', 'stat README.md'])
  ])
}
