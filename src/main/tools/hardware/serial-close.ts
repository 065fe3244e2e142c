import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, HARDWARE_RESULTS, noSession, portOfSession, portScope, SERIAL_LABELS, type HardwareToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createSerialCloseTool(services: HardwareToolServices) {
  return defineTool({
    name: 'serial_close',
    repeat: 'may-differ',
    description: 'Close a serial session and free its port.',
    shortDescription: 'Close the serial "session" and free its port.',
    category: 'hardware',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({ session: z.string().min(1).max(100) }),
    subjectKind: 'device',
    subject: (args) => ({ value: portOfSession(services, args.session) }),
    grantScope: (args) => portScope(portOfSession(services, args.session)),
    summary: (args) => portOfSession(services, args.session),
    preview: (args) => ({ title: text('title'), fields: [{ label: text('port'), value: portOfSession(services, args.session), code: true }] }),
    messages: {
      en: { ...SERIAL_LABELS.en, ...HARDWARE_RESULTS.en, title: 'Close a serial port', 'result.closed': 'Closed {port}.' },
      'zh-CN': { ...SERIAL_LABELS['zh-CN'], ...HARDWARE_RESULTS['zh-CN'], title: '关闭串口', 'result.closed': '已关闭 {port}。' }
    },
    run: (args) =>
      attempt(async () => {
        const path = portOfSession(services, args.session)
        const closed = await services.devices.sessions.close(args.session)
        return closed ? withDisplay(ok(`Closed ${path}.`), text('result.closed', { port: path })) : noSession(args.session, `No open serial session ${args.session} (already closed).`)
      })
  })
}
