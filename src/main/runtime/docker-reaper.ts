import os from 'node:os'
import type Docker from 'dockerode'
import { APP_LABEL_VALUE, LABEL } from './docker-container-spec'

/** Containers carrying all of these labels (`key=value`). */
export async function listSandboxContainers(docker: Docker, labels: Record<string, string> = {}): Promise<Docker.ContainerInfo[]> {
  const filters = [`${LABEL.app}=${APP_LABEL_VALUE}`, ...Object.entries(labels).map(([key, value]) => `${key}=${value}`)]
  return docker.listContainers({ all: true, filters: { label: filters } })
}

export async function removeContainers(docker: Docker, ids: readonly string[]): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      docker
        .getContainer(id)
        .remove({ force: true, v: true })
        .catch((error: { statusCode?: number }) => {
          // Already gone, or already being removed: either way it will not linger.
          if (error.statusCode !== 404 && error.statusCode !== 409) throw error
        })
    )
  )
}

/**
 * Removes sandbox containers left by DeskClaw processes that are gone (crashed, killed). The
 * rule is deliberately narrow so that two running copies of the app, or a remote engine shared
 * by several machines, never lose each other's containers: only containers whose owner-host
 * label is this machine and whose owner-pid is not a live process here are removed.
 * Returns the ids removed.
 */
export async function reapOrphans(docker: Docker, isAlive: (pid: number) => boolean = pidIsAlive): Promise<string[]> {
  const containers = await listSandboxContainers(docker, { [LABEL.ownerHost]: os.hostname() })
  const orphans = containers.filter((container) => {
    const pid = Number(container.Labels[LABEL.ownerPid])
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid)
  })
  await removeContainers(
    docker,
    orphans.map((container) => container.Id)
  )
  return orphans.map((container) => container.Id)
}

export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive, not ours to judge.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
