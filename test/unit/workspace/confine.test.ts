import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { confineToWorkspace, WorkspaceEscapeError } from '../../../src/main/workspace'

let root: string
let outside: string

beforeAll(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-confine-')))
  root = join(base, 'ws')
  outside = join(base, 'outside')
  mkdirSync(join(root, 'sub'), { recursive: true })
  mkdirSync(outside)
  symlinkSync(outside, join(root, 'out-link'))
  symlinkSync(join(root, 'sub'), join(root, 'in-link'))
  symlinkSync('/etc/hostname', join(root, 'file-link'))
})

describe('confineToWorkspace', () => {
  it.each([
    ['a.txt', 'a.txt'],
    ['sub/../b.txt', 'b.txt'],
    ['./sub/new/deep.txt', 'sub/new/deep.txt'],
    ['in-link/c.txt', 'sub/c.txt'],
    ['.', '.']
  ])('accepts %s', (requested, display) => {
    expect(confineToWorkspace(root, requested).display).toBe(display)
  })

  it('accepts an absolute path inside the workspace', () => {
    expect(confineToWorkspace(root, join(root, 'sub', 'x')).display).toBe('sub/x')
  })

  it.each([
    '../escape.txt',
    'sub/../../escape.txt',
    '/etc/passwd',
    'out-link/secret.txt',
    'out-link/new/dir/file.txt',
    'file-link',
    'a\0b'
  ])('refuses %s', (requested) => {
    expect(() => confineToWorkspace(root, requested)).toThrow(WorkspaceEscapeError)
  })

  it('names the path and what to do in the error', () => {
    expect(() => confineToWorkspace(root, '../x')).toThrow(/"\.\.\/x" is outside the workspace.*relative/)
  })
})
