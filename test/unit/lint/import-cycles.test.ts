import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkImportCycles, type ImportCycleReport } from '../../../scripts/import-cycles.mjs'

/**
 * No circle between the files of src/ (docs/architecture.md, "Which way the arrows run"):
 * scripts/import-cycles.mjs computes the import graph from the sources, types included, and
 * `npm run lint` fails on any strongly connected component.
 */
const SCRIPT = join(process.cwd(), 'scripts', 'import-cycles.mjs')

type Tree = Record<string, string>

const scratch: string[] = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function writeTree(tree: Tree): string {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-cycles-'))
  scratch.push(root)
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

function runScript(root: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT, root], { cwd: process.cwd(), encoding: 'utf8' })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

function check(tree: Tree): ImportCycleReport {
  const root = writeTree(tree)
  return checkImportCycles(root, { display: root })
}

/** Two rooms: `a` re-exports `thing` through its barrel; `thing` reads a type of `b`; `shape` (in `b`) takes a type back from `a`. */
const CYCLIC: Tree = {
  'a/index.ts': "export { thing } from './thing'\n",
  'a/thing.ts': "import type { Shape } from '../b'\nexport const thing = (s: Shape): number => s.size\n",
  'b/index.ts': "export type { Shape } from './shape'\n",
  'b/shape.ts': "import type { thing } from '../a'\nexport interface Shape { size: number; made?: typeof thing }\n",
  'c/leaf.ts': "import { thing } from '../a'\nexport const leaf = thing\n"
}

describe('import-cycles', () => {
  it('fails on a circle through a type-only import and a barrel, naming its files and one loop', () => {
    const { status, stderr } = runScript(writeTree(CYCLIC))
    expect(status).toBe(1)
    expect(stderr).toMatch(/1 cycle\(s\)/)
    const listed = stderr.split('\n').filter((line) => /^ {2}\S/.test(line) && !line.includes('loop:')).map((line) => line.trim().replace(/^.*deskclaw-cycles-[^/]+\//, ''))
    expect(listed.sort()).toEqual(['a/index.ts', 'a/thing.ts', 'b/index.ts', 'b/shape.ts'])
    // The file that only imports the circle is not in it.
    expect(stderr).not.toContain('c/leaf.ts')
    const loop = stderr.slice(stderr.indexOf('loop:')).split('\n').map((line) => line.replace(/^.*?(→|loop:)\s*/, '').replace(/^.*deskclaw-cycles-[^/]+\//, '').trim()).filter(Boolean)
    expect(loop[0]).toBe(loop[loop.length - 1])
    expect(loop.length).toBe(5)
  })

  it('passes the same rooms without the import that runs back up, and counts them', () => {
    const acyclic = { ...CYCLIC, 'b/shape.ts': 'export interface Shape { size: number }\n' }
    const { status, stdout, stderr } = runScript(writeTree(acyclic))
    expect(stderr).toBe('')
    expect(status).toBe(0)
    expect(stdout.trim()).toBe('import-cycles: 5 files, 4 imports, 0 cycles.')
  })

  // Every way one file can name another closes a circle with a plain import back.
  const EDGES: Array<[string, Tree]> = [
    ['import type', { 'x.ts': "import type { Y } from './y'\nexport type X = Y\n" }],
    ['export … from', { 'x.ts': "export { y } from './y'\n" }],
    ['export type … from', { 'x.ts': "export type { Y } from './y'\n" }],
    ['export * from', { 'x.ts': "export * from './y'\n" }],
    ['dynamic import()', { 'x.ts': "export const load = () => import('./y')\n" }],
    ["an import('…') type", { 'x.ts': "export type X = import('./y').Y\n" }],
    ['a folder import (index.ts)', { 'x.ts': "import { y } from './yy'\nexport const x = y\n", 'yy/index.ts': "import { x } from '../x'\nexport const y = x\n" }],
    ['an import with a .js extension', { 'x.ts': "import { y } from './y.js'\nexport const x = y\n" }],
    ['a .tsx file', { 'x.ts': "import { Y } from './view'\nexport const x = Y\n", 'view.tsx': "import { x } from './x'\nexport const Y = () => <b>{String(x)}</b>\n" }],
    [
      'a tsconfig path alias',
      {
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['lib/*'] } } }),
        'x.ts': "import { y } from '@lib/y'\nexport const x = y\n",
        'lib/y.ts': "import { x } from '../x'\nexport const y = x\n"
      }
    ]
  ]
  it.each(EDGES)('follows %s', (_, edge) => {
    const tree: Tree = { 'y.ts': "import { x } from './x'\nexport const y = x\nexport type Y = number\n", ...edge }
    const report = check(tree)
    expect(report.cycles).toHaveLength(1)
    expect(report.cycles[0]!.files).toContain('x.ts')
  })

  it('ignores packages and names that resolve to nothing it read', () => {
    const report = check({ 'x.ts': "import { z } from 'zod'\nimport type { Stats } from 'node:fs'\nimport { gone } from './missing'\nexport const x = [z, gone] as unknown as Stats\n" })
    expect(report).toEqual({ files: 1, edges: 0, cycles: [] })
  })

  it('finds a file that imports itself, and several separate circles', () => {
    const report = check({
      'self.ts': "import { me } from './self'\nexport const me = 1\nexport const again = me\n",
      'p.ts': "import { q } from './q'\nexport const p = q\n",
      'q.ts': "import { p } from './p'\nexport const q = p\n"
    })
    expect(report.cycles.map((c) => c.files)).toEqual(expect.arrayContaining([['self.ts'], ['p.ts', 'q.ts']]))
    expect(report.cycles).toHaveLength(2)
  })

  it('finds no circle in src/', () => {
    const { status, stdout, stderr } = runScript(join(process.cwd(), 'src'))
    expect(stderr).toBe('')
    expect(status).toBe(0)
    expect(stdout).toMatch(/^import-cycles: \d{3,} files, \d{3,} imports, 0 cycles\.$/m)
  })
})
