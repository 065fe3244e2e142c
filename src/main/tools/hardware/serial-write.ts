import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { LINE_ENDINGS } from '../../devices'
import { attempt, describeBytes, HARDWARE_RESULTS, hexBytes, noSession, portOfSession, portScope, SERIAL_LABELS, textBytes, type HardwareToolServices } from './common'
import { trusted } from '../../provenance'

export function createSerialWriteTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_write',
    repeat: 'may-differ',
    description:
      'Write to an open serial session: `text` (the session\'s line ending is added unless add_line_ending is false; \\r \\n \\t \\xNN escapes work) or `hex` bytes ("41 54 0d 0a").',
    shortDescription: 'Write "text" (escapes work; the line ending is added unless "add_line_ending" is false) or "hex" bytes to the serial "session".',
    category: 'hardware',
    access: 'execute',
    source: trusted,
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'device', destination: portOfSession(services, args.session) }) },
    input: z.object({
      session: z.string().min(1).max(100),
      text: z.string().max(100_000).optional(),
      hex: z.string().max(200_000).optional(),
      add_line_ending: z.boolean().default(true)
    }),
    subjectKind: 'device',
    subject: (args) => ({ value: portOfSession(services, args.session) }),
    grantScope: (args) => portScope(portOfSession(services, args.session)),
    summary: (args) => `${portOfSession(services, args.session)} ← ${args.text ?? args.hex ?? ''}`.slice(0, 80),
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('port'), value: portOfSession(services, args.session), code: true },
        { label: text('data'), value: args.hex !== undefined ? `hex ${args.hex}` : (args.text ?? ''), code: true, arg: args.hex !== undefined ? 'hex' : 'text' }
      ]
    }),
    messages: {
      en: {
        ...SERIAL_LABELS.en,
        ...HARDWARE_RESULTS.en,
        title: 'Write to a serial port',
        'result.written': 'Wrote {bytes} bytes to {port}.',
        'result.textOrHex': 'Give either text or hex, not both and not neither.'
      },
      'zh-CN': {
        ...SERIAL_LABELS['zh-CN'],
        ...HARDWARE_RESULTS['zh-CN'],
        title: '写入串口',
        'result.written': '已向 {port} 写入 {bytes} 字节。',
        'result.textOrHex': '请给出 text 或 hex 其中之一（不能都给，也不能都不给）。'
      }
    },
    run: (args) =>
      attempt(async () => {
        if ((args.text === undefined) === (args.hex === undefined)) {
          return withDisplay({ forLlm: 'Give either text or hex, not both and not neither.', isError: true }, text('result.textOrHex'))
        }
        const session = services.devices.sessions.get(args.session)
        if (!session) return noSession(args.session, `No open serial session ${args.session}; open one with serial_open.`)
        const data =
          args.hex !== undefined ? hexBytes(args.hex) : Buffer.concat([textBytes(args.text!), Buffer.from(args.add_line_ending ? LINE_ENDINGS[session.options.lineEnding] : '')])
        const written = await services.devices.sessions.write(args.session, data)
        return withDisplay(ok(`Wrote ${written} bytes to ${session.path}: ${describeBytes(data)}`), text('result.written', { bytes: written, port: session.path }))
      })
  })
}
