import os from 'node:os'
import type { ContainerCreateOptions } from 'dockerode'

/** The user-facing sandbox image (resources/sandbox/Dockerfile). */
export const DEFAULT_SANDBOX_IMAGE = 'deskclaw/sandbox:1'

export const MIB = 1024 * 1024

/** Labels that mark our containers; the reaper and closeConversation find them by these. */
export const LABEL = {
  app: 'dev.deskclaw.app',
  conversation: 'dev.deskclaw.conversation',
  ownerPid: 'dev.deskclaw.owner-pid',
  ownerHost: 'dev.deskclaw.owner-host',
  workspace: 'dev.deskclaw.workspace',
  /** `ro` on the container whose workspace mount is read-only, `rw` on the usual one. */
  workspaceMode: 'dev.deskclaw.workspace-mode'
} as const
export const APP_LABEL_VALUE = 'deskclaw'

/** PID 1's child: sleeps forever, busybox- and coreutils-compatible, ends on SIGTERM. */
export const KEEP_ALIVE_CMD = ['/bin/sh', '-c', 'trap exit TERM; while :; do sleep 3600 & wait; done']

export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

export interface SandboxLimits {
  /** Memory limit in bytes, swap included (no swap). Default 512 MiB. */
  memoryBytes: number
  /** CPU quota in units of 1e-9 CPUs. Default 1 CPU. */
  nanoCpus: number
  /** Most processes (threads) at once: stops fork bombs. Default 256. */
  pidsLimit: number
  /** Size of the private /tmp. Default 256 MiB. */
  tmpBytes: number
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 512 * MIB,
  nanoCpus: 1e9,
  pidsLimit: 256,
  tmpBytes: 256 * MIB
}

export interface ContainerSpecInput {
  image: string
  conversationId: string
  /** Host folder, bind-mounted read-write at the same path so paths mean the same inside. */
  workspace: string
  /** The workspace bind mount is read-only (ExecRequest.workspaceReadOnly). */
  workspaceReadOnly?: boolean
  limits: SandboxLimits
  /** `uid:gid` the commands run as; default the image's user. */
  user?: string
  ownerPid?: number
}

/** Labels of a container owned by this process (or `ownerPid`) on this machine. */
export function ownerLabels(ownerPid = process.pid): Record<string, string> {
  return { [LABEL.app]: APP_LABEL_VALUE, [LABEL.ownerPid]: String(ownerPid), [LABEL.ownerHost]: os.hostname() }
}

/**
 * The container a conversation's commands run in: no network, read-only root, a private tmpfs
 * /tmp, every capability dropped, no privilege gain, memory / cpu / pids limits, and only the
 * workspace mounted from the host. Never the Docker socket, never the host's environment.
 */
export function containerSpec(input: ContainerSpecInput): ContainerCreateOptions {
  const { limits } = input
  return {
    name: `deskclaw-${slug(input.conversationId)}-${Math.random().toString(36).slice(2, 8)}`,
    Image: input.image,
    Cmd: KEEP_ALIVE_CMD,
    Entrypoint: [],
    WorkingDir: input.workspace,
    User: input.user,
    Env: [`PATH=${SANDBOX_PATH}`, 'HOME=/tmp'],
    Labels: {
      ...ownerLabels(input.ownerPid),
      [LABEL.conversation]: input.conversationId,
      [LABEL.workspace]: input.workspace,
      [LABEL.workspaceMode]: input.workspaceReadOnly ? 'ro' : 'rw'
    },
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${Math.floor(limits.tmpBytes / MIB)}m` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: limits.nanoCpus,
      PidsLimit: limits.pidsLimit,
      // A tiny init as PID 1: reaps zombies, and the OOM killer picks the big command, not it.
      Init: true,
      Mounts: [{ Type: 'bind', Source: input.workspace, Target: input.workspace, ReadOnly: input.workspaceReadOnly === true }],
      RestartPolicy: { Name: 'no' }
    }
  }
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(0, 40) || 'conversation'
  )
}
