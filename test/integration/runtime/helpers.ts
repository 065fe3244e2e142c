import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { DockerRuntime, type ExecRequest } from '../../../src/main/runtime'
import { requireCapability } from '../../helpers/capability'

export const repoRoot = path.resolve(__dirname, '../../..')
/** What a test may add to a shell-line request. */
export type RequestExtras = Partial<Pick<ExecRequest, 'timeoutMs' | 'signal' | 'onOutput' | 'env' | 'workspace' | 'conversationId'>>

export const TEST_IMAGE = 'deskclaw/test-sandbox:busybox'

const createdWorkspaces: string[] = []

/** Removes every folder tempWorkspace made (test files call it in afterAll). */
export function removeTempWorkspaces(): void {
  for (const dir of createdWorkspaces.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

/** A fresh folder under the OS temp dir (real path: /tmp may be a symlink elsewhere); see removeTempWorkspaces. */
export function tempWorkspace(prefix = 'deskclaw-rt-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  createdWorkspaces.push(dir)
  return dir
}

/** Serves "reachable" on 0.0.0.0 (every host interface), on a free port. */
export async function startHttpServer(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0
  const server = http.createServer((_request, response) => {
    hits++
    response.end('reachable\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

export function hasCommand(file: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${file}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * Docker tests need a live engine and the busybox test image, which scripts/build-test-image.sh
 * builds without a registry. Skips (or fails under DESKCLAW_REQUIRE_ALL=1) when either is missing.
 */
export async function dockerTestImageReady(): Promise<boolean> {
  const probe = await DockerRuntime.probe()
  const engine = requireCapability(
    'Docker',
    probe.ok,
    `${probe.ok ? '' : probe.reason} Install docker.io and start dockerd (or set DOCKER_HOST).`
  )
  if (!engine) return false
  const busybox = requireCapability('busybox-static', fs.existsSync('/bin/busybox'), 'apt-get install busybox-static')
  if (!busybox) return false
  execFileSync('sh', [path.join(repoRoot, 'scripts/build-test-image.sh'), TEST_IMAGE], { stdio: 'ignore' })
  return true
}

/** Wall time of one host `true`: the host must stay responsive while a sandbox misbehaves. */
export function hostTrueMs(): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) =>
    execFile('true', (error) => (error ? reject(error) : resolve(performance.now() - started)))
  )
}

/** Host processes whose command line contains `marker` (read from /proc). */
export function hostProcessesMatching(marker: string): string[] {
  const found: string[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')
      if (cmdline.includes(marker)) found.push(`${entry}: ${cmdline}`)
    } catch {
      // Gone meanwhile.
    }
  }
  return found
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
