import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type Docker from 'dockerode'
import { RuntimeUnavailableError, type ProbeResult } from './types'

/** How long a probe waits for the engine: a dead remote must not stall startup. */
export const DOCKER_PROBE_TIMEOUT_MS = 2_000

/**
 * A dockerode client for `dockerHost` (same syntax as DOCKER_HOST: unix://, tcp://, ssh://…) or,
 * when absent, for DOCKER_HOST / DOCKER_TLS_VERIFY / DOCKER_CERT_PATH from the environment, as
 * the docker CLI reads them. docker-modem does that parsing itself but only from process.env,
 * so an explicit host is swapped in for the (synchronous) constructor call.
 */
export function createDockerClient(dockerHost?: string): Docker {
  if (dockerHost === undefined) return newClient(process.env.DOCKER_HOST)
  const saved = process.env.DOCKER_HOST
  process.env.DOCKER_HOST = dockerHost
  try {
    return newClient(dockerHost)
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST
    else process.env.DOCKER_HOST = saved
  }
}

function newClient(dockerHost: string | undefined): Docker {
  // dockerode loads with the first client, not with the app (docs/benchmarks.md, "CLI start-up").
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const DockerClient = require('dockerode') as typeof Docker
  try {
    return new DockerClient()
  } catch (error) {
    // docker-modem rejects a malformed DOCKER_HOST in the constructor.
    throw new RuntimeUnavailableError(
      `DOCKER_HOST=${dockerHost ?? ''} is not a valid engine address (${error instanceof Error ? error.message : String(error)}).`
    )
  }
}

/** Where the client talks to, for messages: a socket path or protocol://host:port. */
export function describeEngine(docker: Docker): string {
  const modem = docker.modem as { socketPath?: unknown; host?: string; port?: string | number; protocol?: string }
  if (modem.host) return `${modem.protocol ?? 'http'}://${modem.host}${modem.port ? `:${modem.port}` : ''}`
  if (typeof modem.socketPath === 'string') return `unix://${modem.socketPath}`
  // docker-modem picks the default socket lazily, the same way: Docker Desktop's, else the system's.
  const userSocket = path.join(os.homedir(), '.docker', 'run', 'docker.sock')
  return `unix://${fs.existsSync(userSocket) ? userSocket : '/var/run/docker.sock'}`
}

/** Pings the engine (and asks its version); never waits longer than `timeoutMs`. */
export async function pingEngine(docker: Docker, timeoutMs = DOCKER_PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const engine = describeEngine(docker)
  const abort = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      abort.abort()
      resolve('timeout')
    }, timeoutMs)
  })
  // dockerode accepts an abortSignal here; its type declarations do not say so.
  const ping = docker.ping as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>
  const version = docker.version as unknown as (options: { abortSignal: AbortSignal }) => Promise<Docker.DockerVersion>
  const ask = async (): Promise<Docker.DockerVersion | undefined> => {
    await ping.call(docker, { abortSignal: abort.signal })
    return version.call(docker, { abortSignal: abort.signal }).catch(() => undefined)
  }
  try {
    const answer = await Promise.race([ask(), timeout])
    if (answer === 'timeout') {
      return { ok: false, reason: `The Docker engine at ${engine} did not answer within ${timeoutMs / 1000} s.` }
    }
    return { ok: true, detail: `${engine}${answer ? `, engine ${answer.Version} (API ${answer.ApiVersion})` : ''}` }
  } catch (error) {
    return { ok: false, reason: explainEngineError(error, engine) }
  } finally {
    clearTimeout(timer)
  }
}

/** One line a person can act on, for a failed request to the engine. */
export function explainEngineError(error: unknown, engine: string): string {
  const code = (error as { code?: string }).code
  const message = error instanceof Error ? error.message.trim() : String(error)
  switch (code) {
    case 'ECONNREFUSED':
      return `The Docker engine at ${engine} refused the connection: is Docker running there? (check DOCKER_HOST)`
    case 'ENOENT':
      return `Docker is not running or not installed: there is no socket at ${engine.replace('unix://', '')}.`
    case 'EACCES':
      return `No permission to use the Docker socket ${engine.replace('unix://', '')} (add your user to the "docker" group).`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The Docker host in ${engine} cannot be resolved (check DOCKER_HOST).`
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The Docker engine at ${engine} cannot be reached (${code}).`
    default:
      return `The Docker engine at ${engine} failed: ${message.split('\n')[0]}`
  }
}
