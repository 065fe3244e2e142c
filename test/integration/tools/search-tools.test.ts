import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSearchTools, ToolRegistry, type ToolContext, type ToolOutput } from '../../../src/main/tools'

/*
 * grep and glob on a real tree (docs/tools.md, "grep and glob"): they never leave the workspace —
 * not by "..", not by an absolute path, not through a symbolic link, whether to a file or a folder —
 * and they skip what .gitignore (at any depth), .ignore and hidden names exclude, as ripgrep does.
 */

const SECRET = 'NEEDLE-outside-secret'
const registry = new ToolRegistry([createSearchTools()])
let base: string
let workspace: string
let outside: string

async function call(tool: string, args: Record<string, unknown>): Promise<ToolOutput> {
  const checked = registry.checkArgs(tool, args)
  if (!checked.ok) throw new Error(checked.error)
  const ctx: ToolContext = { workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined }
  return registry.execute(tool, checked.args, ctx)
}

/** The result's lines without the notes ("[… links … not followed]"). */
const listed = (result: ToolOutput) => result.forLlm.split('\n').filter((line) => !line.startsWith('['))

function write(path: string, body: string, ageSeconds = 0) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, body)
  const when = new Date(Date.now() - ageSeconds * 1000)
  utimesSync(path, when, when)
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-search-')))
  workspace = join(base, 'workspace')
  outside = join(base, 'outside')
  write(join(outside, 'secret.txt'), `${SECRET}\n`)
  write(join(outside, 'dir', 'deep.ts'), `const x = "${SECRET}"\n`)
  write(join(workspace, 'src', 'a.ts'), 'import x from "y"\nconst NEEDLE = 1\nexport default NEEDLE\n', 30)
  write(join(workspace, 'src', 'b.py'), 'def f():\n    return "NEEDLE"\n', 20)
  write(join(workspace, 'src', 'sub', 'c.ts'), 'line one\nline two\nNEEDLE here\nline four\nline five\n', 10)
  write(join(workspace, '.gitignore'), 'build/\n*.log\n')
  write(join(workspace, 'build', 'out.ts'), 'NEEDLE in build output\n')
  write(join(workspace, 'debug.log'), 'NEEDLE in a log\n')
  write(join(workspace, 'src', '.gitignore'), 'generated.ts\n')
  write(join(workspace, 'src', 'generated.ts'), 'NEEDLE generated\n')
  write(join(workspace, '.hidden', 'h.ts'), 'NEEDLE hidden\n')
  write(join(workspace, 'bin.dat'), 'NEEDLE\0binary')
  // Links out, to a file and to folders; a link to a file inside (followed); a link to a folder inside and a loop (searched at their real place).
  symlinkSync(join(workspace, 'src', 'b.py'), join(workspace, 'linked.py'))
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'src', 'leak.txt'))
  symlinkSync(join(outside, 'dir'), join(workspace, 'escape'))
  symlinkSync(join(workspace, 'src', 'sub'), join(workspace, 'alias'))
  symlinkSync(workspace, join(workspace, 'src', 'loop'))
  symlinkSync(outside, join(workspace, 'out'))
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

describe('grep', () => {
  it('finds matches as path:line:text, respecting .gitignore at every depth, hidden names and binary files', async () => {
    const result = await call('grep', { pattern: 'NEEDLE' })
    expect(result.isError).toBe(false)
    const lines = listed(result)
    expect(lines).toEqual([
      'linked.py:2:    return "NEEDLE"',
      'src/a.ts:2:const NEEDLE = 1',
      'src/a.ts:3:export default NEEDLE',
      'src/b.py:2:    return "NEEDLE"',
      'src/sub/c.ts:3:NEEDLE here'
    ])
    expect(result.forLlm).toMatch(/symbolic links leading outside the workspace were not followed/)
    expect(result.forLlm).not.toContain(SECRET)
    expect(result.display?.key).toBe('result.matches')
  })

  it('takes hidden files when asked, and context lines, type and glob filters, counts and file lists', async () => {
    expect(listed(await call('grep', { pattern: 'NEEDLE', hidden: true, type: 'ts', glob: ['!src/sub/**'] }))).toEqual([
      '.hidden/h.ts:1:NEEDLE hidden',
      'src/a.ts:2:const NEEDLE = 1',
      'src/a.ts:3:export default NEEDLE'
    ])
    expect((await call('grep', { pattern: 'needle', ignoreCase: true, path: 'src/sub', context: 1 })).forLlm).toBe(
      'src/sub/c.ts-2-line two\nsrc/sub/c.ts:3:NEEDLE here\nsrc/sub/c.ts-4-line four'
    )
    expect(listed(await call('grep', { pattern: 'NEEDLE', path: 'src', output: 'count' }))).toEqual(['src/a.ts:2', 'src/b.py:1', 'src/sub/c.ts:1'])
    expect(listed(await call('grep', { pattern: 'NEEDLE', glob: ['*.py'], output: 'files' }))).toEqual(['linked.py', 'src/b.py'])
    const limited = await call('grep', { pattern: 'NEEDLE', limit: 2 })
    expect(limited.display?.key).toBe('result.limited')
    expect(limited.forLlm).toMatch(/stopped at the limit of 2 matches/)
  })

  it('never leaves the workspace: "..", absolute paths and links out are refused or skipped', async () => {
    for (const path of ['..', '../outside', join(outside, 'secret.txt'), outside, '/etc', 'out', 'escape', 'src/leak.txt', 'src/../../outside']) {
      const result = await call('grep', { pattern: 'NEEDLE', path })
      expect(result.isError, path).toBe(true)
      expect(result.display?.key, path).toBe('result.outside')
      expect(result.forLlm).not.toContain(SECRET)
    }
    // An absolute path inside the workspace is fine.
    expect((await call('grep', { pattern: 'NEEDLE', path: join(workspace, 'src', 'b.py') })).forLlm).toBe('src/b.py:2:    return "NEEDLE"')
    expect((await call('grep', { pattern: 'outside-secret', hidden: true })).display?.key).toBe('result.noMatches')
  })

  it('turns a bad regular expression into an error result', async () => {
    const result = await call('grep', { pattern: 'a(b' })
    expect(result.isError).toBe(true)
    expect(result.display?.key).toBe('result.badPattern')
  })
})

describe('glob', () => {
  it('finds files by pattern, most recent first, respecting .gitignore and hidden names', async () => {
    const result = await call('glob', { pattern: '**/*.ts' })
    expect(listed(result)).toEqual(['src/sub/c.ts', 'src/a.ts'])
    expect(listed(await call('glob', { pattern: '*.py' })).sort()).toEqual(['linked.py', 'src/b.py'])
    expect(listed(await call('glob', { pattern: '*.ts', path: 'src/sub' }))).toEqual(['src/sub/c.ts'])
    expect((await call('glob', { pattern: '**/*.ts', hidden: true })).forLlm).toContain('.hidden/h.ts')
    expect((await call('glob', { pattern: '*.zig' })).display?.key).toBe('result.noFiles')
  })

  it('never leaves the workspace: patterns and paths that point out are refused, links out are skipped', async () => {
    for (const pattern of ['../**', '/etc/*', '../outside/*', 'src/../../outside/*']) {
      const result = await call('glob', { pattern })
      expect(result.isError, pattern).toBe(true)
      expect(result.display?.key).toBe('result.patternOutside')
    }
    for (const path of ['..', outside, 'out', 'escape']) {
      expect((await call('glob', { pattern: '**', path })).display?.key, path).toBe('result.outside')
    }
    const all = await call('glob', { pattern: '**', hidden: true })
    expect(all.forLlm).not.toMatch(/secret\.txt|deep\.ts|leak/)
    expect(all.forLlm).toMatch(/symbolic links leading outside the workspace were not followed/)
  })
})
