import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { applyRewind, changesBetween, describeChangesForModel, planRewind, pruneAllRepositories, ShadowRepository } from '../../../src/main/checkpoints'

let base: string
let workspace: string
let data: string

/** Every file under the workspace (the user's .git excluded) by path → sha256 of content, mode and link target. */
function treeHashes(root: string): Record<string, string> {
  const result: Record<string, string> = {}
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name)
      const rel = relative(root, full)
      if (rel === '.git' || rel.startsWith('.git/')) continue
      if (entry.isDirectory()) walk(full)
      else if (entry.isSymbolicLink()) result[rel] = `link:${readlinkSync(full)}`
      else result[rel] = `${createHash('sha256').update(readFileSync(full)).digest('hex')}:${(statSync(full).mode & 0o111) !== 0 ? 'x' : '-'}`
    }
  }
  walk(root)
  return result
}

function gitInWorkspace(...args: string[]): string {
  return execFileSync('git', args, { cwd: workspace, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' } }).toString()
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-checkpoints-')))
  workspace = join(base, 'ws')
  data = join(base, 'data')
  mkdirSync(join(workspace, 'src'), { recursive: true })
  writeFileSync(join(workspace, 'src', 'a.ts'), 'export const a = 1\n')
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n\nfirst\n')
  writeFileSync(join(workspace, 'doomed.txt'), 'delete me\n')
  writeFileSync(join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n')
  chmodSync(join(workspace, 'run.sh'), 0o755)
  symlinkSync('src/a.ts', join(workspace, 'link-to-a'))
})

describe('ShadowRepository', () => {
  it('records the workspace without touching its own git repository', async () => {
    gitInWorkspace('init', '-q')
    gitInWorkspace('add', 'notes.md')
    gitInWorkspace('commit', '-q', '-m', 'user commit')
    writeFileSync(join(workspace, '.gitignore'), 'secret-build/\n')
    mkdirSync(join(workspace, 'secret-build'))
    writeFileSync(join(workspace, 'secret-build', 'out.bin'), 'ignored')
    const indexBefore = readFileSync(join(workspace, '.git', 'index'))
    const statusBefore = gitInWorkspace('status', '--porcelain')
    const repo = new ShadowRepository(workspace, data)
    const first = await repo.snapshot('first')
    expect(first.id).toMatch(/^[0-9a-f]{40}$/)
    expect(readFileSync(join(workspace, '.git', 'index')).equals(indexBefore)).toBe(true)
    expect(gitInWorkspace('status', '--porcelain')).toBe(statusBefore)
    expect(gitInWorkspace('stash', 'list')).toBe('')
    expect(existsSync(join(data, 'checkpoints'))).toBe(true)
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', first.tree], { env: { ...process.env, GIT_DIR: repo.target.gitDir } })
      .toString()
      .split('\n')
      .filter(Boolean)
    expect(files.sort()).toEqual(['.gitignore', 'doomed.txt', 'link-to-a', 'notes.md', 'run.sh', 'src/a.ts'])
  })

  it('lists what changed between two checkpoints, with sizes, line counts and binaries', async () => {
    const repo = new ShadowRepository(workspace, data)
    const before = await repo.snapshot('before')
    writeFileSync(join(workspace, 'notes.md'), '# Notes\n\nfirst\nsecond\nthird\n')
    rmSync(join(workspace, 'doomed.txt'))
    writeFileSync(join(workspace, 'image.bin'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]))
    const after = await repo.snapshot('after', before.id)
    const changes = await changesBetween(repo.target, before.id, after.id)
    const byPath = Object.fromEntries(changes.map((change) => [change.path, change]))
    expect(Object.keys(byPath).sort()).toEqual(['doomed.txt', 'image.bin', 'notes.md'])
    expect(byPath['notes.md']).toMatchObject({ kind: 'modified', added: 2, removed: 0, binary: false })
    expect(byPath['doomed.txt']).toMatchObject({ kind: 'deleted', beforeBytes: 10, afterBytes: 0 })
    expect(byPath['image.bin']).toMatchObject({ kind: 'added', binary: true, afterBytes: 8 })
    expect(describeChangesForModel(changes)).toMatch(/^3 files changed: /)
  })

  it('leaves out files above the size limit, with a note, and keeps them out', async () => {
    const repo = new ShadowRepository(workspace, data, { maxFileBytes: 1024 })
    writeFileSync(join(workspace, 'big.dat'), Buffer.alloc(4096, 1))
    const first = await repo.snapshot('first')
    expect(first.skipped).toEqual([{ path: 'big.dat', reason: 'too-large', bytes: 4096 }])
    writeFileSync(join(workspace, 'notes.md'), 'changed\n')
    const second = await repo.snapshot('second', first.id)
    const changes = await changesBetween(repo.target, first.id, second.id)
    expect(changes.map((change) => change.path)).toEqual(['notes.md'])
  })

  it('undoes a run back to identical file hashes, and redoes it', async () => {
    const original = treeHashes(workspace)
    const repo = new ShadowRepository(workspace, data)
    const before = await repo.snapshot('before run')
    writeFileSync(join(workspace, 'src', 'a.ts'), 'export const a = 2\n')
    mkdirSync(join(workspace, 'generated', 'deep'), { recursive: true })
    writeFileSync(join(workspace, 'generated', 'deep', 'out.js'), 'x')
    rmSync(join(workspace, 'doomed.txt'))
    chmodSync(join(workspace, 'run.sh'), 0o644)
    rmSync(join(workspace, 'link-to-a'))
    symlinkSync('notes.md', join(workspace, 'link-to-a'))
    writeFileSync(join(workspace, 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]))
    const afterRun = await repo.snapshot('after run', before.id)
    const changedByRun = treeHashes(workspace)

    const plan = await planRewind(repo, before.id, afterRun.id)
    expect(plan.conflicts).toEqual([])
    expect(plan.changes.map((change) => change.path).sort()).toEqual(
      ['doomed.txt', 'generated/deep/out.js', 'link-to-a', 'pic.png', 'run.sh', 'src/a.ts'].sort()
    )
    const undone = await applyRewind(repo, plan)
    expect(undone.failed).toEqual([])
    expect(treeHashes(workspace)).toEqual(original)
    expect(existsSync(join(workspace, 'generated'))).toBe(false)
    expect(lstatSync(join(workspace, 'link-to-a')).isSymbolicLink()).toBe(true)

    const redoPlan = await planRewind(repo, undone.redo, undone.after.id)
    const redone = await applyRewind(repo, redoPlan)
    expect(redone.failed).toEqual([])
    expect(treeHashes(workspace)).toEqual(changedByRun)
  })

  it('never overwrites a file changed after the checkpoint unless told to', async () => {
    const repo = new ShadowRepository(workspace, data)
    const before = await repo.snapshot('before run')
    writeFileSync(join(workspace, 'notes.md'), 'the run wrote this\n')
    writeFileSync(join(workspace, 'src', 'a.ts'), 'export const a = 3\n')
    const afterRun = await repo.snapshot('after run', before.id)
    writeFileSync(join(workspace, 'notes.md'), 'the user wrote this later\n')
    writeFileSync(join(workspace, 'unrelated.txt'), 'the user made this too\n')

    const plan = await planRewind(repo, before.id, afterRun.id)
    expect(plan.conflicts.map((conflict) => conflict.path)).toEqual(['notes.md'])
    const kept = await applyRewind(repo, plan)
    expect(kept.kept).toEqual(['notes.md'])
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('the user wrote this later\n')
    expect(readFileSync(join(workspace, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1\n')
    expect(readFileSync(join(workspace, 'unrelated.txt'), 'utf8')).toBe('the user made this too\n')

    const again = await planRewind(repo, before.id, afterRun.id)
    const taken = await applyRewind(repo, again, new Map([['notes.md', 'take-checkpoint']]))
    expect(taken.restored).toContain('notes.md')
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n\nfirst\n')
  })

  it('does not write through a folder swapped for a link that leads outside', async () => {
    const outside = join(base, 'outside')
    mkdirSync(outside)
    const repo = new ShadowRepository(workspace, data)
    const before = await repo.snapshot('before')
    writeFileSync(join(workspace, 'src', 'a.ts'), 'changed\n')
    const afterRun = await repo.snapshot('after', before.id)
    rmSync(join(workspace, 'src'), { recursive: true })
    symlinkSync(outside, join(workspace, 'src'))
    const plan = await planRewind(repo, before.id, afterRun.id)
    await applyRewind(repo, plan, new Map(plan.conflicts.map((conflict) => [conflict.path, 'take-checkpoint'] as const)))
    expect(readdirSync(outside)).toEqual([])
  })

  it('prunes by age and by size, and forgets a deleted conversation’s checkpoints', async () => {
    const repo = new ShadowRepository(workspace, data)
    const refs = () => execFileSync('git', ['for-each-ref', '--format=%(objectname)', 'refs/checkpoints/'], { env: { ...process.env, GIT_DIR: repo.target.gitDir } }).toString().split('\n').filter(Boolean)
    const hasObject = (id: string) => {
      try {
        execFileSync('git', ['cat-file', '-e', id], { env: { ...process.env, GIT_DIR: repo.target.gitDir }, stdio: 'ignore' })
        return true
      } catch {
        return false
      }
    }
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(workspace, 'data.bin'), Buffer.alloc(300_000, i + 1))
      ids.push((await repo.snapshot(`c${i}`, ids.at(-1))).id)
    }
    expect(refs().sort()).toEqual([...ids].sort())
    await repo.dropCheckpoints([ids[1]!])
    expect(refs().sort()).toEqual([ids[0]!, ids[2]!].sort())
    // Young and small: nothing goes.
    expect(await pruneAllRepositories(data, { maxAgeMs: 86_400_000, maxBytes: 1e9 })).toBe(0)
    // A day later, everything is old.
    expect(await pruneAllRepositories(data, { maxAgeMs: 86_400_000, maxBytes: 1e9 }, Date.now() + 2 * 86_400_000)).toBe(2)
    expect(refs()).toEqual([])
    expect(hasObject(ids[0]!)).toBe(false)
    // By size: a tiny limit drops the oldest until under it.
    const fresh = await repo.snapshot('fresh')
    expect(await repo.prune({ maxAgeMs: 86_400_000, maxBytes: 1 })).toBe(1)
    expect(hasObject(fresh.id)).toBe(false)
  })
})
