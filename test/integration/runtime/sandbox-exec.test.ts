import { describe, expect, it } from 'vitest'
import { SandboxExecRuntime, sandboxProfile } from '../../../src/main/runtime'

describe('sandbox-exec (macOS Seatbelt) profile', () => {
  const profile = sandboxProfile({ writable: ['/Users/ana/My "odd" \\ project'], tmpDir: '/private/var/folders/xy/T/deskclaw-cmd-1' })

  it('denies by default and denies every network operation', () => {
    expect(profile).toMatch(/^\(version 1\)\n\(deny default\)\n/)
    expect(profile).toContain('(deny network*)')
    expect(profile).not.toMatch(/\(allow network/)
  })

  it('lets the workspace (escaped) and the private temp folder be written, nothing else', () => {
    expect(profile).toContain('(subpath "/Users/ana/My \\"odd\\" \\\\ project")')
    expect(profile).toContain('(subpath "/private/var/folders/xy/T/deskclaw-cmd-1")')
    const writeRule = /\(allow file-write\*\n([\s\S]*?)\n\)/.exec(profile)?.[1] ?? ''
    expect(writeRule.split('\n')).toHaveLength(2)
    // Reads are open (the system is read-only, as under bwrap --ro-bind / /).
    expect(profile).toContain('(allow file-read*)')
  })

  it('keeps signals and process inspection inside the sandbox', () => {
    expect(profile).toContain('(allow signal (target same-sandbox))')
    expect(profile).toContain('(allow process-info* (target same-sandbox))')
  })
})

describe.runIf(process.platform !== 'darwin')('sandbox-exec probe off macOS', () => {
  it('is not ok, with the reason', async () => {
    expect(await SandboxExecRuntime.probe()).toEqual({ ok: false, reason: 'sandbox-exec (Seatbelt) exists only on macOS.' })
    await expect(new SandboxExecRuntime().exec({ command: 'true', cwd: '/', timeoutMs: 1_000 })).rejects.toThrow(/only on macOS/)
  })
})
