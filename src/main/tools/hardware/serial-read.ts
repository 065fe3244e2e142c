import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { LINE_ENDINGS } from '../../devices'
import { attempt, describeBytes, portOfSession, portScope, SERIAL_LABELS, textBytes, type HardwareToolServices } from './common'

export function createSerialReadTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_read',
    description:
      'Read from an open serial session until a delimiter arrives (default: the session\'s line ending), `bytes` bytes have arrived, or the timeout passes (default 2000 ms). ' +
      'Returns what arrived and why it stopped.',
    category: 'hardware',
    access: 'read',
    input: z.object({
      session: z.string().min(1).max(100),
      until: z.string().max(200).optional().describe('Stop after this text (escapes like \\r\\n work); "" to wait for the timeout or bytes'),
      bytes: z.number().int().min(1).max(1_000_000).optional(),
      timeout_ms: z.number().int().min(0).max(120_000).default(2_000)
    }),
    // A read talks to the device too: it asks like the other serial tools (one grant per port covers them).
    asksFirst: () => true,
    subjectKind: 'device',
    subject: (args) => ({ value: portOfSession(services, args.session) }),
    grantScope: (args) => portScope(portOfSession(services, args.session)),
    summary: (args) => `${portOfSession(services, args.session)}${args.until ? ` until ${JSON.stringify(args.until)}` : ''}`,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('port'), value: portOfSession(services, args.session), code: true },
        { label: text('timeout'), value: `${args.timeout_ms} ms` }
      ]
    }),
    messages: { en: { ...SERIAL_LABELS.en, title: 'Read from a serial port' }, 'zh-CN': { ...SERIAL_LABELS['zh-CN'], title: '读取串口' } },
    run: (args, ctx) =>
      attempt(async () => {
        const session = services.devices.sessions.get(args.session)
        if (!session) return { forLlm: `No open serial session ${args.session}; open one with serial_open.`, isError: true }
        const until = args.until !== undefined ? textBytes(args.until) : args.bytes === undefined ? Buffer.from(LINE_ENDINGS[session.options.lineEnding]) : undefined
        const result = await services.devices.sessions.read(args.session, {
          ...(until && until.length > 0 ? { until } : {}),
          ...(args.bytes !== undefined ? { bytes: args.bytes } : {}),
          timeoutMs: args.timeout_ms,
          signal: ctx.signal
        })
        const why = { delimiter: 'the delimiter arrived', bytes: `${args.bytes} bytes arrived`, timeout: `${args.timeout_ms} ms passed`, closed: 'the port was closed' }[result.reason]
        return ok(`Read from ${session.path} (${why}): ${describeBytes(result.data)}`)
      })
  })
}
