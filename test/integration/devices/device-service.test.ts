import { describe, expect, it } from 'vitest'
import { BackendUnavailableError, DeviceService, serialBackend, type DeviceBackend, type DevicesChange, type HidView, type UsbView } from '../../../src/main/devices'
import { requireSocat, startPtyPair } from '../../helpers/pty-pair'

// The service keeps every backend apart: one that throws is a status with its reason, never a crash
// or an empty list for the others; plug and unplug arrive as changes (docs/devices.md).
const broken = <V>(kind: 'usb' | 'hid', error: Error): DeviceBackend<V> => ({ kind, list: async () => Promise.reject(error) })

describe('DeviceService', () => {
  it('reports each missing backend with its reason and fix, and still lists the others', async () => {
    const service = new DeviceService({
      settings: () => ({ serialPorts: [] }),
      backends: {
        usb: broken<UsbView>('usb', new BackendUnavailableError('/sys/bus/usb/devices does not exist', 'run on the host')),
        hid: broken<HidView>('hid', new TypeError('something unexpected')),
        serial: serialBackend({ extraPorts: () => [], list: async () => [{ path: '/dev/ttyACM0', vendorId: '2e8a', productId: '0005', serialNumber: 'E6614C311B4B2F2B' }] })
      }
    })
    const snapshot = await service.list()
    expect(snapshot.backends).toEqual([
      { backend: 'usb', available: false, why: '/sys/bus/usb/devices does not exist', fix: 'run on the host' },
      { backend: 'hid', available: false, why: 'something unexpected' },
      { backend: 'serial', available: true }
    ])
    expect(snapshot.devices).toHaveLength(1)
    expect(snapshot.devices[0]).toMatchObject({ ports: ['/dev/ttyACM0'], vendorId: '2e8a', productId: '0005', kinds: ['serial'] })
    await service.shutdown()
  })

  it('a serial lister that fails on Linux falls back to the kernel\'s own list instead of failing', async () => {
    const service = new DeviceService({
      settings: () => ({ serialPorts: [] }),
      backends: { usb: broken('usb', new BackendUnavailableError('no usb')), hid: broken('hid', new BackendUnavailableError('no hid')), serial: serialBackend({ extraPorts: () => [], platform: 'linux', list: async () => Promise.reject(new Error('spawn udevadm ENOENT')) }) }
    })
    const snapshot = await service.list()
    expect(snapshot.backends.find((b) => b.backend === 'serial')).toEqual({ backend: 'serial', available: true })
    await service.shutdown()
  })
})

describe.skipIf(!requireSocat())('hot-plug of an added port', () => {
  it('announces a pty when it appears and when it goes away', async () => {
    const pty = await startPtyPair()
    const path = pty.a
    await pty.unplug() // not there yet
    const service = new DeviceService({
      settings: () => ({ serialPorts: [path] }),
      pollMs: 100,
      backends: { usb: broken('usb', new BackendUnavailableError('no usb')), hid: broken('hid', new BackendUnavailableError('no hid')), serial: serialBackend({ extraPorts: () => [path], list: async () => [] }) }
    })
    const changes: DevicesChange[] = []
    const stop = service.onChange((change) => changes.push(change))
    const waitFor = async (predicate: () => boolean) => {
      const until = Date.now() + 5_000
      while (!predicate()) {
        if (Date.now() > until) throw new Error(`timed out; changes: ${JSON.stringify(changes.map((c) => [c.added, c.removed]))}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    try {
      await waitFor(() => changes.length >= 1)
      expect(changes[0]!.snapshot.devices).toEqual([])
      const again = await startPtyPair() // a new pair: link it where the added path points
      const { symlinkSync, rmSync } = await import('node:fs')
      rmSync(path, { force: true })
      symlinkSync((await import('node:fs')).realpathSync(again.a), path)
      await waitFor(() => changes.some((c) => c.added.length > 0))
      const added = changes.find((c) => c.added.length > 0)!
      expect(added.snapshot.devices.find((d) => d.id === added.added[0])).toMatchObject({ ports: [path], connection: 'virtual' })
      await again.dispose()
      await waitFor(() => changes.some((c) => c.removed.length > 0))
      expect(changes.at(-1)!.removed).toEqual(added.added)
    } finally {
      stop()
      await service.shutdown()
      await pty.dispose()
    }
  })
})
