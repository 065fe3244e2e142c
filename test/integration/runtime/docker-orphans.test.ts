import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bundleFixture, runChildUntilReadyThenKill } from '../../helpers/child-process'
import { DockerRuntime } from '../../../src/main/runtime'
import type { OrphanChildReady } from './fixtures/orphan-child'
import { dockerTestImageReady, TEST_IMAGE, tempWorkspace, removeTempWorkspaces } from './helpers'

afterAll(removeTempWorkspaces)

const ready = await dockerTestImageReady()

/** Node 20 cannot run TypeScript: bundle the child with esbuild (as the store crash test does). */
function bundleChild(): Promise<string> {
  return bundleFixture(path.join(__dirname, 'fixtures/orphan-child.ts'), tempWorkspace('deskclaw-orphan-bundle-'), ['dockerode'])
}

/** Runs the child until its command runs in a container, SIGKILLs it, resolves once it is gone. */
function runChildUntilCommandRunsThenKill(childFile: string, workspace: string, conversationId: string): Promise<OrphanChildReady> {
  return runChildUntilReadyThenKill<OrphanChildReady>(childFile, [TEST_IMAGE, workspace, conversationId], 'orphan child')
}

describe.runIf(ready)('docker orphan reaping (real engine)', () => {
  it('a container left by a killed owner mid-command is removed by the next start', async () => {
    const workspace = tempWorkspace('deskclaw-orphan-')
    const conversationId = `orphan-${process.pid}`
    const orphan = await runChildUntilCommandRunsThenKill(await bundleChild(), workspace, conversationId)

    const runtime = new DockerRuntime({ image: TEST_IMAGE })
    const container = runtime.docker.getContainer(orphan.containerId)
    // The owner is dead but its container (and command) live on…
    const before = await container.inspect()
    expect(before.State.Running).toBe(true)

    // …until the next start reaps it; our own live containers are left alone.
    await runtime.exec({ command: 'true', cwd: workspace, conversationId: 'survivor', timeoutMs: 10_000 })
    const removed = await runtime.reapOrphans()
    expect(removed).toContain(orphan.containerId)
    await expect(container.inspect()).rejects.toMatchObject({ statusCode: 404 })
    expect(await runtime.containerId('survivor')).toBeDefined()
    await runtime.docker.getContainer((await runtime.containerId('survivor'))!).inspect()
    await runtime.close()
  }, 60_000)
})
