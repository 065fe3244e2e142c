import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { cmdStatements } from '../../../src/main/risk/shell/cmd'

/** Native Windows runs command lines with cmd.exe: the engine must read them the way cmd does (docs/risk.md). */
let engine: RiskEngine
let workspace: string
beforeAll(async () => {
  engine = await RiskEngine.create({ home: '/home/tester' })
  workspace = mkdtempSync(join(tmpdir(), 'deskclaw-cmd-'))
  writeFileSync(join(workspace, 'README.md'), 'x')
})

const judge = (command: string, shell: 'sh' | 'cmd' = 'cmd') => engine.assessShell(command, { workspace, autonomy: 'supervised', shell }).verdict

describe('cmd.exe lines', () => {
  it('splits where cmd splits: outside double quotes, single quotes are plain characters, ^ escapes', () => {
    expect(cmdStatements("echo 'a & del /s /q C:\\'").map((s) => s.tokens[0])).toEqual(['echo', 'del'])
    expect(cmdStatements('echo "a & b" && dir').map((s) => s.tokens[0])).toEqual(['echo', 'dir'])
    expect(cmdStatements('echo a ^& del x').map((s) => s.tokens[0])).toEqual(['echo'])
  })

  it('what bash calls a quoted string is a command separator for cmd', () => {
    expect(judge("echo 'a & rd /s /q C:\\Windows & echo b'", 'sh')).toBe('allow') // bash: one echo of a string
    expect(judge("echo 'a & rd /s /q C:\\Windows & echo b'")).toBe('deny') // cmd: echo, rd of the Windows folder, echo
    expect(judge("echo 'x | rd /s /q C:\\Windows | echo y'")).toBe('deny')
  })

  it('cmd reads run; plain words are judged as usual; cmd syntax nobody can see through asks', () => {
    expect(judge('dir src')).toBe('allow')
    expect(judge('type README.md')).toBe('allow')
    expect(judge('echo hi ^& del /s /q C:\\')).toBe('allow') // the & is escaped: it is printed
    expect(judge('git status')).toBe('allow')
    expect(judge('rm -rf build')).toBe('ask')
    expect(judge('type %USERPROFILE%\\.ssh\\id_rsa')).toBe('ask')
    expect(judge('set')).toBe('ask')
    expect(judge('rd /s /q C:\\Windows')).toBe('deny')
  })
})
