import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { LINE_ENDINGS } from '../../devices'
import { attempt, describeBytes, hexBytes, portOfSession, portScope, SERIAL_LABELS, textBytes, type HardwareToolServices } from './common'

export function createSerialWriteTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_write',
    description:
      'Write to an open serial session: `text` (the session\'s line ending is added unless add_line_ending is false; \\r \\n \\t \\xNN escapes work) or `hex` bytes ("41 54 0d 0a").',
    category: 'hardware',
    access: 'execute',
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
    messages: { en: { ...SERIAL_LABELS.en, title: 'Write to a serial port' }, 'zh-CN': { ...SERIAL_LABELS['zh-CN'], title: '写入串口' } },
    run: (args) =>
      attempt(async () => {
        if ((args.text === undefined) === (args.hex === undefined)) return { forLlm: 'Give either text or hex, not both and not neither.', isError: true }
        const session = services.devices.sessions.get(args.session)
        if (!session) return { forLlm: `No open serial session ${args.session}; open one with serial_open.`, isError: true }
        const data =
          args.hex !== undefined ? hexBytes(args.hex) : Buffer.concat([textBytes(args.text!), Buffer.from(args.add_line_ending ? LINE_ENDINGS[session.options.lineEnding] : '')])
        const written = await services.devices.sessions.write(args.session, data)
        return ok(`Wrote ${written} bytes to ${session.path}: ${describeBytes(data)}`)
      })
  })
}
