import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, HARDWARE_RESULTS, type HardwareToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createDevicesListTool(services: HardwareToolServices) {
  return defineTool({
    name: 'devices_list',
    repeat: 'may-differ',
    description:
      'List the USB, HID and serial devices plugged into this computer: names (boards such as ESP32-S3, Raspberry Pi Pico, Arduino Uno), ' +
      'vendor:product ids, serial numbers and serial port paths, and which device backends are unavailable and why.',
    shortDescription: 'List the USB, HID and serial devices plugged into this computer (names, ids, serial ports) and unavailable backends with why.',
    category: 'hardware',
    access: 'read',
    source: trusted,
    sink: noSink,
    input: z.object({}),
    summary: () => '',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...HARDWARE_RESULTS.en, title: 'List devices', 'result.devices': 'Found {count} devices.', 'result.noDevices': 'No devices found.' },
      'zh-CN': { ...HARDWARE_RESULTS['zh-CN'], title: '列出设备', 'result.devices': '找到 {count} 个设备。', 'result.noDevices': '没有找到设备。' }
    },
    run: () =>
      attempt(async () => {
        const { devices, backends } = await services.devices.list()
        const lines = devices.map((d) => {
          const ids = d.vendorId ? ` [${d.vendorId}:${d.productId ?? '????'}]` : ''
          const serial = d.serialNumber ? ` serial ${d.serialNumber}` : ''
          const ports = d.ports.length ? ` ports ${d.ports.join(', ')}` : ''
          const board = d.board && d.board !== d.name ? ` — ${d.board}` : ''
          return `- ${d.name}${board}${ids}${serial}${ports} (${d.kinds.join('+')}, ${d.connection})`
        })
        const missing = backends.filter((b) => !b.available).map((b) => `- ${b.backend}: unavailable: ${b.why}${b.fix ? ` Fix: ${b.fix}` : ''}`)
        const body = devices.length ? `${devices.length} device(s):\n${lines.join('\n')}` : 'No devices found.'
        const shown = devices.length ? text('result.devices', { count: devices.length }) : text('result.noDevices')
        return withDisplay(ok(missing.length ? `${body}\nBackends not available:\n${missing.join('\n')}` : body), shown)
      })
  })
}
