import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { NativeRuntime } from '../../../src/main/runtime'
import { createCheckTools, ToolRegistry, type ToolOutput } from '../../../src/main/tools'
import { requireCapability } from '../../helpers/capability'

/*
 * The lint tool runs the real checkers of small projects made here (docs/tools.md, "lint"):
 * eslint and tsc from this repository's node_modules, pytest from the system; their real output
 * becomes file:line diagnostics. No canned text.
 */
const registry = new ToolRegistry([createCheckTools({ runtime: new NativeRuntime() })])
const made: string[] = []

function project(files: Record<string, string>, withNodeModules = false): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-lint-')))
  made.push(dir)
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), body)
  }
  if (withNodeModules) symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'))
  return dir
}

async function lint(workspace: string, check?: string): Promise<ToolOutput> {
  const checked = registry.checkArgs('lint', check ? { check } : {})
  if (!checked.ok) throw new Error(checked.error)
  return registry.execute('lint', checked.args, { workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined })
}

afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('lint', () => {
  it("turns eslint's real output into diagnostics", async () => {
    const dir = project(
      {
        'package.json': JSON.stringify({ name: 'fx', type: 'module', scripts: { lint: 'eslint .' } }),
        'eslint.config.js': "export default [{ files: ['**/*.js'], rules: { 'no-unused-vars': 'error', 'no-var': 'warn' } }]\n",
        'src/a.js': 'const unused = 1\nvar kept = 2\nconsole.log(kept)\n'
      },
      true
    )
    const result = await lint(dir)
    expect(result.isError).toBe(true)
    expect(result.forLlm.split('\n').slice(1)).toEqual([
      "src/a.js:1:7 error 'unused' is assigned a value but never used [no-unused-vars]",
      'src/a.js:2:1 warning Unexpected var, use let or const instead [no-var]'
    ])
    expect(result.display).toEqual({ key: 'result.problems', params: { command: 'npm run --silent lint', count: 2, files: 1, code: 1 } })
  })

  it("turns tsc's real output into diagnostics, and a clean run into none", async () => {
    const dir = project(
      {
        'package.json': JSON.stringify({ name: 'fx', scripts: { typecheck: 'tsc --noEmit -p .' } }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [], skipLibCheck: true }, include: ['src'] }),
        'src/b.ts': 'const n: number = "text"\nexport function f(x) { return x }\n'
      },
      true
    )
    const result = await lint(dir, 'typecheck')
    expect(result.forLlm.split('\n').slice(1)).toEqual([
      "src/b.ts:1:7 error Type 'string' is not assignable to type 'number'. [TS2322]",
      "src/b.ts:2:19 error Parameter 'x' implicitly has an 'any' type. [TS7006]"
    ])
    writeFileSync(join(dir, 'src/b.ts'), 'export const n: number = 1\n')
    const clean = await lint(dir, 'typecheck')
    expect(clean.isError).toBe(false)
    expect(clean.display?.key).toBe('result.clean')
  }, 90_000)

  it("turns pytest's real output into diagnostics", async () => {
    if (!requireCapability('pytest', spawnSync('python3', ['-m', 'pytest', '--version']).status === 0, 'install it (Debian: python3-pytest)')) return
    const dir = project({
      'pyproject.toml': '[project]\nname = "fx"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      'tests/test_math.py': 'def test_adds():\n    assert 1 + 1 == 2\n\n\ndef test_breaks():\n    total = 1 + 1\n    assert total == 3\n'
    })
    const result = await lint(dir, 'test')
    expect(result.isError).toBe(true)
    expect(result.forLlm.split('\n').slice(1)).toEqual(['tests/test_math.py:7 error test_breaks failed: assert 2 == 3 [AssertionError]'])
  })

  it('uses the command set for the workspace in Settings before the manifest, and its preview says so', async () => {
    const dir = project(
      {
        // The manifest's own lint would fail differently: the setting must win over it.
        'package.json': JSON.stringify({ name: 'fx', type: 'module', scripts: { lint: 'exit 7' } }),
        'eslint.config.js': "export default [{ files: ['**/*.js'], rules: { 'no-undef': 'error' } }]\n",
        'lib/c.js': 'export const value = missing + 1\n'
      },
      true
    )
    const command = 'node_modules/.bin/eslint --format stylish lib'
    const configured = new ToolRegistry([createCheckTools({ runtime: new NativeRuntime(), projectChecks: () => ({ [dir]: { lint: command } }) })])
    const preview = await configured.get('lint')!.preview({}, { workspace: dir })
    expect(preview.fields.map((field) => [field.label.key, field.value, field.display?.key])).toEqual(
      expect.arrayContaining([
        ['command', command, undefined],
        ['from', 'set in Settings', 'from.settings']
      ])
    )
    const result = await configured.execute('lint', {}, { workspace: dir, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined })
    expect(result.forLlm.split('\n')).toEqual([`${command} (set in Settings) exit code 1`, "lib/c.js:1:22 error 'missing' is not defined [no-undef]"])
    // Another workspace's setting is not this one's: the manifest's command runs.
    const elsewhere = new ToolRegistry([createCheckTools({ runtime: new NativeRuntime(), projectChecks: () => ({ [`${dir}-other`]: { lint: command } }) })])
    const fromManifest = await elsewhere.execute('lint', {}, { workspace: dir, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined })
    expect(fromManifest.forLlm).toContain('npm run --silent lint (package.json scripts.lint) exit code 7')
  }, 60_000)

  it('says so when the project declares no such check', async () => {
    const result = await lint(project({ 'README.md': '# nothing\n' }))
    expect(result.isError).toBe(true)
    expect(result.display).toEqual({ key: 'result.none', params: { check: 'lint' } })
  })
})
