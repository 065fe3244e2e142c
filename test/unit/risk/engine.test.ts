import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine, fromRules, mergeRuleSets, readRuleFile } from '../../../src/main/risk'
import { createFileTools, riskSubjectOf } from '../../../src/main/tools'

let engine: RiskEngine
let workspace: string
const home = '/home/tester'

beforeAll(async () => {
  engine = await RiskEngine.create({ home })
  workspace = mkdtempSync(join(tmpdir(), 'deskclaw-engine-'))
})

/** Judges a call of the real file tool `name`, as the runner does: by its declared domain, access and subject. */
const fileTools = createFileTools().tools()
const assess = (name: string, args: Record<string, unknown>, autonomy: 'readonly' | 'supervised' | 'full' = 'supervised') => {
  const tool = fileTools.find((t) => t.name === name)!
  return engine.assess({ tool: name, category: tool.category, access: tool.access, subject: riskSubjectOf(tool, args) }, { workspace, autonomy })
}

describe('RiskEngine for file tools (path guardian)', () => {
  it('reads inside the workspace run; secrets ask even to read, with the span on the path', () => {
    expect(assess('file_read', { path: 'src/index.ts' }).verdict).toBe('allow')
    const secret = assess('file_read', { path: '.env.local' })
    expect(secret.verdict).toBe('ask')
    expect(secret.findings[0]).toMatchObject({ rule: 'path.sensitive', span: { arg: 'path', start: 0, end: 10 } })
  })

  it('writes ask in supervised, deny in readonly, run in full; protected files ask even in full', () => {
    expect(assess('file_write', { path: 'notes.md' }).verdict).toBe('ask')
    expect(assess('file_write', { path: 'notes.md' }, 'readonly').verdict).toBe('deny')
    expect(assess('file_write', { path: 'notes.md' }, 'full').verdict).toBe('allow')
    const hook = assess('file_write', { path: '.git/hooks/pre-commit' })
    expect(hook.findings.map((f) => f.rule)).toContain('path.sensitive')
    expect(hook.alwaysRule).toBeNull()
  })

  it('denies paths outside the workspace by canonical path, symlinks included', () => {
    expect(assess('file_write', { path: '../escape.txt' }).verdict).toBe('deny')
    expect(assess('file_read', { path: '/etc/passwd' }).verdict).toBe('deny')
  })

  it('offers "always" as the exact file, never a folder', () => {
    expect(assess('file_write', { path: 'docs/a.md' }).alwaysRule).toEqual({ tool: 'file_write', match: ['docs', 'a.md'], decision: 'allow', why: 'Allowed always by the user' })
  })
})

describe('rules', () => {
  it('a project rules file may only tighten: its allow rules are ignored with a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskclaw-rules-'))
    mkdirSync(join(dir, '.deskclaw'))
    writeFileSync(
      join(dir, '.deskclaw', 'rules.json'),
      JSON.stringify({ rules: [{ tool: 'shell', match: ['rm', '*'], decision: 'allow' }, { tool: 'shell', match: ['git', 'push', '*'], decision: 'deny' }] })
    )
    const set = readRuleFile(join(dir, '.deskclaw', 'rules.json'), 'project')
    expect(set.rules.map((r) => r.decision)).toEqual(['deny'])
    expect(set.warnings[0]).toMatch(/may only ask or deny/)
    engine.setRules(set)
    expect(engine.assessShell('rm -rf build', { workspace, autonomy: 'supervised' }).verdict).toBe('ask')
    expect(engine.assessShell('git -C . push --force origin main', { workspace, autonomy: 'full' }).verdict).toBe('deny')
    engine.setRules(fromRules([], 'user'))
  })

  it('a malformed rules file is an error (fail closed), a missing one is no rules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskclaw-rules-'))
    writeFileSync(join(dir, 'rules.json'), '{ "rules": [ { "tool": "shell" } ] }')
    const bad = readRuleFile(join(dir, 'rules.json'), 'user')
    expect(bad.errors[0]).toMatch(/rules\.0\.match/)
    expect(readRuleFile(join(dir, 'absent.json'), 'user')).toEqual({ rules: [], errors: [], warnings: [] })
    engine.setRules(mergeRuleSets(bad))
    expect(engine.assessShell('ls', { workspace, autonomy: 'supervised' }).verdict).toBe('ask')
    engine.setRules(fromRules([], 'user'))
  })

  it('a deny rule against a wrapper catches what it wraps; an allow rule for a wrapper allows nothing inside', () => {
    engine.setRules(fromRules([{ tool: 'shell', match: ['sudo', '*'], decision: 'deny' }], 'user'))
    expect(engine.assessShell('sudo ls', { workspace, autonomy: 'full' }).verdict).toBe('deny')
    engine.setRules(fromRules([{ tool: 'shell', match: ['timeout', '*'], decision: 'allow' }], 'user'))
    expect(engine.assessShell('timeout 5 rm -rf build', { workspace, autonomy: 'supervised' }).verdict).toBe('ask')
    engine.setRules(fromRules([], 'user'))
  })

  it('full autonomy on an unsandboxed runtime still asks for shell commands that are not known-safe', () => {
    expect(engine.assessShell('rm -rf build', { workspace, autonomy: 'full', unsandboxed: true }).verdict).toBe('ask')
    expect(engine.assessShell('ls', { workspace, autonomy: 'full', unsandboxed: true }).verdict).toBe('allow')
    expect(engine.assessShell('rm -rf build', { workspace, autonomy: 'full' }).verdict).toBe('allow')
  })
})

describe('git in a repository whose own config runs programs', () => {
  it('git status is read-only in a plain repository, and asks once .git/config sets core.fsmonitor', () => {
    const repo = mkdtempSync(join(tmpdir(), 'deskclaw-git-'))
    execFileSync('git', ['init', '-q', repo])
    expect(engine.assessShell('git status', { workspace: repo, autonomy: 'supervised' }).verdict).toBe('allow')
    execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', 'touch pwned; false'])
    const assessment = engine.assessShell('git status', { workspace: repo, autonomy: 'supervised' })
    expect(assessment.verdict).toBe('ask')
    expect(assessment.findings.map((f) => f.message).join(' ')).toMatch(/fsmonitor/)
  })
})
