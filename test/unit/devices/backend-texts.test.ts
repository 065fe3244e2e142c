/**
 * Issue 22, item 5: a device backend that cannot work says why and how to fix it as message codes
 * the UI translates, with the fix's command apart (the copyable box holds a command, not a
 * sentence); the English `why`/`fix` stay for the CLI.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BackendUnavailableError, DeviceService, usbBackend } from '../../../src/main/devices'
import { dictionaries } from '../../../src/renderer/src/i18n'

const empty = { kind: 'hid' as const, list: async () => [] }

describe('device backend texts', () => {
  it('carry message codes the UI has, in both languages, and the command apart', async () => {
    const service = new DeviceService({
      settings: () => ({ serialPorts: [] }),
      backends: {
        usb: {
          kind: 'usb',
          list: async () => {
            throw new BackendUnavailableError('USB devices cannot be listed: EACCES', 'add a udev rule such as: …', {
              why: { key: 'devices.why.usbList', params: { detail: 'EACCES' } },
              fix: { key: 'devices.fix.udev' },
              fixCommand: 'sudo udevadm control --reload'
            })
          }
        },
        hid: empty,
        serial: { kind: 'serial', list: async () => [] }
      }
    })
    const usb = (await service.list()).backends.find((status) => status.backend === 'usb')!
    expect(usb).toMatchObject({
      available: false,
      why: 'USB devices cannot be listed: EACCES',
      whyText: { key: 'devices.why.usbList', params: { detail: 'EACCES' } },
      fixText: { key: 'devices.fix.udev' },
      fixCommand: 'sudo udevadm control --reload'
    })
    await service.shutdown()
  })

  it.skipIf(existsSync('/sys/bus/usb/devices'))('without /sys/bus/usb (a container) the USB backend says so in codes', async () => {
    const error = await usbBackend('linux').list().then(
      () => null,
      (thrown: unknown) => thrown
    )
    expect(error).toBeInstanceOf(BackendUnavailableError)
    const texts = (error as BackendUnavailableError).texts!
    expect(texts.why).toEqual({ key: 'devices.why.noSysfs', params: { path: '/sys/bus/usb/devices' } })
    expect(texts.fixCommand).toBe('--device /dev/bus/usb -v /sys/bus/usb:/sys/bus/usb:ro')
    for (const key of [texts.why.key, texts.fix!.key]) {
      expect(dictionaries.en).toHaveProperty([key])
      expect(dictionaries['zh-CN']).toHaveProperty([key])
    }
  })
})
