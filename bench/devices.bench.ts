/**
 * Device discovery: the time of one `list()` with every real backend (USB, HID, serial — whichever
 * load here; the others fail fast and say why), and how long a serial port that appears takes to be
 * announced by the hot-plug poll (default 1.5 s). Run: npx vitest bench --run --project unit bench/devices.bench.ts
 * The second part needs socat (a pty pair that appears at a path the user added).
 */
import { spawnSync } from 'node:child_process'
import { afterAll, bench, describe } from 'vitest'
import { DeviceService, type DevicesChange } from '../src/main/devices'
import { startPtyPair } from '../test/helpers/pty-pair'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const recorder = new LatencyRecorder()
const hasSocat = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0

afterAll(() => {
  console.log(`\nDevice discovery (ms):\n${latencyTable(recorder.summaries(30))}\n`)
})

describe('devices', () => {
  const service = new DeviceService({ settings: () => ({ serialPorts: [] }) })
  bench('list() with every backend', async () => {
    await recorder.time('list() with every backend (usb, hid, serial)', () => service.list())
  }, { iterations: 30, warmupIterations: 3 })

  bench.skipIf(!hasSocat)('hot-plug: a port appears → announced', async () => {
    const pty = await startPtyPair()
    const path = pty.a
    await pty.unplug()
    const watcher = new DeviceService({ settings: () => ({ serialPorts: [path] }) })
    let seen: (() => void) | null = null
    let ready: (() => void) | null = null
    const first = new Promise<void>((resolve) => (ready = resolve))
    const stop = watcher.onChange((change: DevicesChange) => {
      ready?.()
      if (change.added.length > 0) seen?.()
    })
    await first
    // Let the first poll settle at a random phase, as a real plug would.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_500))
    const announced = new Promise<void>((resolve) => (seen = resolve))
    let again: Awaited<ReturnType<typeof startPtyPair>> | undefined
    await recorder.time('hot-plug: a port appears → devices_changed (1.5 s poll)', async () => {
      again = await startPtyPair()
      const { symlinkSync, rmSync, realpathSync } = await import('node:fs')
      rmSync(path, { force: true })
      symlinkSync(realpathSync(again.a), path)
      await announced
    })
    stop()
    await watcher.shutdown()
    await again?.dispose()
    await pty.dispose()
  }, { iterations: 10, warmupIterations: 0 })
})
