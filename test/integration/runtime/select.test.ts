import { afterAll, describe, expect, it } from 'vitest'
import { formatDoctorReport } from '../../../src/main/cli/doctor'
import {
  BwrapRuntime,
  DockerRuntime,
  NativeRuntime,
  diagnoseRuntimes,
  selectRuntime,
  type RuntimeDiagnosis
} from '../../../src/main/runtime'
import { requireCapability } from '../../helpers/capability'
import { dockerTestImageReady, TEST_IMAGE, tempWorkspace, removeTempWorkspaces } from './helpers'

afterAll(removeTempWorkspaces)

const DEAD_ENGINE = { dockerHost: 'tcp://127.0.0.1:1' }
const MISSING_BWRAP = '/nonexistent/bwrap'
const isLinux = process.platform === 'linux'
const bwrapOk = isLinux && requireCapability('bwrap', (await BwrapRuntime.probe()).ok, 'apt-get install bubblewrap')

describe('selectRuntime', () => {
  it.runIf(bwrapOk)('auto with a dead DOCKER_HOST picks bwrap and says why docker was skipped', async () => {
    const started = Date.now()
    const selection = await selectRuntime('auto', { docker: DEAD_ENGINE })
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(selection.runtime).toBeInstanceOf(BwrapRuntime)
    expect(selection.fellBackToNative).toBe(false)
    expect(selection.reasons).toEqual([
      'docker: The Docker engine at http://127.0.0.1:1 refused the connection: is Docker running there? (check DOCKER_HOST)'
    ])
    const result = await selection.runtime.exec({ command: 'echo sandboxed', cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(result).toMatchObject({ stdout: 'sandboxed\n', runtime: 'bwrap' })
  })

  it.runIf(isLinux)('auto with no docker and no bwrap falls back to native and says so', async () => {
    const selection = await selectRuntime('auto', { docker: DEAD_ENGINE, bwrapPath: MISSING_BWRAP })
    expect(selection.runtime).toBeInstanceOf(NativeRuntime)
    expect(selection.fellBackToNative).toBe(true)
    expect(selection.reasons).toEqual([
      expect.stringMatching(/^docker: .*refused the connection/),
      'bwrap: bwrap is not installed (/nonexistent/bwrap not found); install bubblewrap, e.g. apt-get install bubblewrap.'
    ])
  })

  it.runIf(isLinux)('an explicit sandbox that cannot run fails closed, unless told to fall back', async () => {
    await expect(selectRuntime('bwrap', { bwrapPath: MISSING_BWRAP })).rejects.toThrow(
      'The bwrap sandbox cannot run here: bwrap: bwrap is not installed'
    )
    await expect(selectRuntime('docker', { docker: DEAD_ENGINE })).rejects.toThrow(/^The docker sandbox cannot run here: docker: .*refused/)
    const fallback = await selectRuntime('bwrap', { bwrapPath: MISSING_BWRAP, failClosed: false })
    expect(fallback.runtime).toBeInstanceOf(NativeRuntime)
    expect(fallback.fellBackToNative).toBe(true)
  })

  it('native is native, with nothing to explain', async () => {
    const selection = await selectRuntime('native')
    expect(selection).toMatchObject({ fellBackToNative: false, reasons: [] })
    expect(selection.runtime.name).toBe('native')
  })

  it('on a platform without a sandbox, auto says so', async () => {
    const selection = await selectRuntime('auto', { docker: DEAD_ENGINE, platform: 'win32' })
    expect(selection.fellBackToNative).toBe(true)
    expect(selection.reasons.at(-1)).toBe('No local sandbox exists on win32 (bwrap is for Linux, sandbox-exec for macOS).')
  })
})

describe('selectRuntime with a live engine', async () => {
  const dockerReady = await dockerTestImageReady()

  it.runIf(dockerReady)('auto picks docker when the engine answers and the image is there', async () => {
    const selection = await selectRuntime('auto', { docker: { image: TEST_IMAGE } })
    try {
      expect(selection.runtime).toBeInstanceOf(DockerRuntime)
      expect(selection).toMatchObject({ fellBackToNative: false, reasons: [] })
      const result = await selection.runtime.exec({ command: 'echo in-docker', cwd: tempWorkspace(), timeoutMs: 10_000 })
      expect(result).toMatchObject({ stdout: 'in-docker\n', runtime: 'docker' })
    } finally {
      await selection.runtime.close?.()
    }
  })

  it.runIf(dockerReady && bwrapOk)('auto skips docker when its image cannot be pulled, with the reason', async () => {
    const selection = await selectRuntime('auto', { docker: { image: 'deskclaw/not-built:0' } })
    expect(selection.runtime).toBeInstanceOf(BwrapRuntime)
    expect(selection.reasons).toEqual([expect.stringMatching(/^docker: Cannot pull the sandbox image deskclaw\/not-built:0 .*docker build -t/)])
  })
})

describe('deskclaw doctor', () => {
  it.runIf(isLinux)('diagnoses every runtime: dead engine, missing bwrap', async () => {
    const report = await diagnoseRuntimes({ docker: DEAD_ENGINE, bwrapPath: MISSING_BWRAP })
    expect(report.map((entry) => [entry.name, entry.ok])).toEqual([
      ['native', true],
      ['bwrap', false],
      ['sandbox-exec', false],
      ['docker', false],
      ['auto', false]
    ])
    expect(report.find((entry) => entry.name === 'auto')?.detail).toBe('would use native')
  })

  it('formats text and JSON', () => {
    const report: RuntimeDiagnosis[] = [
      { name: 'native', ok: true, detail: 'runs commands directly on this machine, without isolation' },
      { name: 'bwrap', ok: true, detail: 'bubblewrap 0.8.0, with a user namespace' },
      { name: 'sandbox-exec', ok: false, reason: 'sandbox-exec (Seatbelt) exists only on macOS.' },
      { name: 'docker', ok: true, detail: 'unix:///var/run/docker.sock, engine 20.10.24 (API 1.41)' },
      { name: 'docker-image', ok: false, reason: 'deskclaw/sandbox:1 is not on the engine' },
      { name: 'auto', ok: true, detail: 'would use bwrap' }
    ]
    expect(formatDoctorReport(report, { json: false })).toBe(
      [
        'Runtimes (where shell commands run):',
        '  ✓ native         runs commands directly on this machine, without isolation',
        '  ✓ bwrap          bubblewrap 0.8.0, with a user namespace',
        '  ✗ sandbox-exec   sandbox-exec (Seatbelt) exists only on macOS.',
        '  ✓ docker engine  unix:///var/run/docker.sock, engine 20.10.24 (API 1.41)',
        '  ✗ docker image   deskclaw/sandbox:1 is not on the engine',
        'The "auto" setting would use bwrap.',
        ''
      ].join('\n')
    )
    expect(JSON.parse(formatDoctorReport(report, { json: true }))).toEqual({ runtimes: report })
  })
})
