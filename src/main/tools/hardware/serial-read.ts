import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { LINE_ENDINGS } from '../../devices'
import { attempt, describeBytes, HARDWARE_RESULTS, noSession, portOfSession, portScope, SERIAL_LABELS, textBytes, type HardwareToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createSerialReadTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_read',
    repeat: 'may-differ',
    description:
      'Read from an open serial session until a delimiter arrives (default: the session\'s line ending), `bytes` bytes have arrived, or the timeout passes (default 2000 ms). ' +
      'Returns what arrived and why it stopped.',
    shortDescription: 'Read from the serial "session" until "until" arrives (default its line ending), "bytes" bytes, or "timeout_ms" (default 2000) passes.',
    category: 'hardware',
    access: 'read',
    source: untrusted('device'),
    sink: noSink,
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
    summary: (args) =>
      args.until ? text('summary.until', { port: portOfSession(services, args.session), until: JSON.stringify(args.until) }) : portOfSession(services, args.session),
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('port'), value: portOfSession(services, args.session), code: true },
        { label: text('timeout'), value: `${args.timeout_ms} ms` }
      ]
    }),
    messages: {
      en: {
        ...SERIAL_LABELS.en,
        ...HARDWARE_RESULTS.en,
        title: 'Read from a serial port',
        'summary.until': '{port} until {until}',
        'result.read.delimiter': 'Read {bytes} bytes from {port}, up to the delimiter.',
        'result.read.bytes': 'Read {bytes} bytes from {port}.',
        'result.read.timeout': 'Read {bytes} bytes from {port} before {ms} ms passed.',
        'result.read.closed': 'Read {bytes} bytes from {port} before the port was closed.'
      },
      'zh-CN': {
        ...SERIAL_LABELS['zh-CN'],
        ...HARDWARE_RESULTS['zh-CN'],
        title: '读取串口',
        'summary.until': '{port} 直到 {until}',
        'result.read.delimiter': '已从 {port} 读取 {bytes} 字节（读到分隔符为止）。',
        'result.read.bytes': '已从 {port} 读取 {bytes} 字节。',
        'result.read.timeout': '{ms} 毫秒内从 {port} 读取了 {bytes} 字节。',
        'result.read.closed': '端口关闭前从 {port} 读取了 {bytes} 字节。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = services.devices.sessions.get(args.session)
        if (!session) return noSession(args.session, `No open serial session ${args.session}; open one with serial_open.`)
        const until = args.until !== undefined ? textBytes(args.until) : args.bytes === undefined ? Buffer.from(LINE_ENDINGS[session.options.lineEnding]) : undefined
        const result = await services.devices.sessions.read(args.session, {
          ...(until && until.length > 0 ? { until } : {}),
          ...(args.bytes !== undefined ? { bytes: args.bytes } : {}),
          timeoutMs: args.timeout_ms,
          signal: ctx.signal
        })
        const why = { delimiter: 'the delimiter arrived', bytes: `${args.bytes} bytes arrived`, timeout: `${args.timeout_ms} ms passed`, closed: 'the port was closed' }[result.reason]
        const shown = text(READ[result.reason], { port: session.path, bytes: result.data.length, ms: args.timeout_ms })
        return withDisplay(ok(`Read from ${session.path} (${why}): ${describeBytes(result.data)}`), shown)
      })
  })
}

/** The result line of each way a read ends, as literal keys (the key-coverage test reads them). */
const READ = { delimiter: 'result.read.delimiter', bytes: 'result.read.bytes', timeout: 'result.read.timeout', closed: 'result.read.closed' } as const
