import { z } from 'zod'
import { SerialOptionsSchema } from '../../../shared'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, HARDWARE_RESULTS, portScope, SERIAL_LABELS, type HardwareToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createSerialOpenTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_open',
    repeat: 'may-differ',
    description:
      'Open a serial port (a path from devices_list, or any path such as /dev/pts/3, /dev/rfcomm0, COM7) and get a session id for serial_write, serial_read and serial_close. ' +
      'Defaults: 115200 baud, 8 data bits, no parity, 1 stop bit, CRLF line ending.',
    shortDescription: 'Open the serial "port" (defaults 115200 baud, 8N1, CRLF line ending) and get a session id for serial_write, serial_read and serial_close.',
    category: 'hardware',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({
      port: z.string().min(1).max(4096).describe('The port path'),
      baud_rate: SerialOptionsSchema.shape.baudRate,
      data_bits: SerialOptionsSchema.shape.dataBits,
      parity: SerialOptionsSchema.shape.parity,
      stop_bits: SerialOptionsSchema.shape.stopBits,
      line_ending: SerialOptionsSchema.shape.lineEnding.describe('Added after text written with serial_write, and what serial_read waits for by default')
    }),
    subjectKind: 'device',
    subject: (args) => ({ value: args.port, arg: 'port' }),
    grantScope: (args) => portScope(args.port),
    summary: (args) => `${args.port} @ ${args.baud_rate}`,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('port'), value: args.port, code: true, arg: 'port' },
        { label: text('settings'), value: `${args.baud_rate} ${args.data_bits}${args.parity[0]!.toUpperCase()}${args.stop_bits}, ${args.line_ending}` }
      ]
    }),
    messages: {
      en: { ...SERIAL_LABELS.en, ...HARDWARE_RESULTS.en, title: 'Open a serial port', 'result.opened': 'Opened {port} at {baud} baud.' },
      'zh-CN': { ...SERIAL_LABELS['zh-CN'], ...HARDWARE_RESULTS['zh-CN'], title: '打开串口', 'result.opened': '已打开 {port}，波特率 {baud}。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.devices.sessions.open({ kind: 'conversation', conversationId: ctx.conversationId }, args.port, {
          baudRate: args.baud_rate,
          dataBits: args.data_bits,
          parity: args.parity,
          stopBits: args.stop_bits,
          lineEnding: args.line_ending
        })
        return withDisplay(ok(`Opened ${args.port} at ${args.baud_rate} baud. Session: ${session.id}`), text('result.opened', { port: args.port, baud: args.baud_rate }))
      })
  })
}
