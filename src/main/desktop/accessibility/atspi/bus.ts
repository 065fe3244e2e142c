/**
 * Reaching the AT-SPI accessibility bus with dbus-next (docs/desktop.md, "Accessibility backends"):
 * the session bus's `org.a11y.Bus` says where the accessibility bus is; every failure on the way is
 * a reason (no session bus, AT-SPI not installed or not running), never a throw.
 */
import type { Message, MessageBus } from 'dbus-next'
import { failure, ok, type AccessibilityFailure, type AccessibilityResult } from '../types'

export interface A11yConnection {
  bus: MessageBus
  /** org.a11y.Status.IsEnabled: false means toolkits that ask first (Qt, Chromium) expose nothing. */
  enabled: boolean | undefined
}

/** dbus-next loads when a window's tree is first read, not with the app (docs/benchmarks.md, "CLI start-up"). */
let loading: Promise<typeof import('dbus-next')> | undefined
const dbusNext = (): Promise<typeof import('dbus-next')> => (loading ??= import('dbus-next'))

/** Connects to a bus address, resolving once the bus said Hello, or with the reason it did not. */
async function connectTo(address: string, timeoutMs: number): Promise<AccessibilityResult<MessageBus>> {
  const { sessionBus } = await dbusNext()
  return new Promise((resolve) => {
    let bus: MessageBus
    try {
      bus = sessionBus({ busAddress: address })
    } catch (error) {
      resolve(failure('no_session_bus', `${address}: ${(error as Error).message}`))
      return
    }
    const timer = setTimeout(() => {
      bus.disconnect()
      resolve(failure('deadline', `${address}: no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    // A bus that fails later (the app closed the socket) must not crash the process: keep a listener.
    bus.on('error', (error: Error) => {
      clearTimeout(timer)
      resolve(failure('no_session_bus', `${address}: ${error.message}`))
    })
    bus.on('connect', () => {
      clearTimeout(timer)
      resolve(ok(bus))
    })
  })
}

/** One method call with a deadline; a D-Bus error or the deadline is a failure value. */
export async function callBus(bus: MessageBus, message: ConstructorParameters<typeof Message>[0], timeoutMs: number): Promise<AccessibilityResult<unknown[]>> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<AccessibilityFailure>((resolve) => {
    timer = setTimeout(() => resolve(failure('deadline', `${message.interface}.${message.member}: no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  const { Message } = await dbusNext()
  const call = bus.call(new Message(message)).then(
    (reply): AccessibilityResult<unknown[]> => ok(reply?.body ?? []),
    (error: { type?: string; text?: string; message?: string }) => failure(reasonOf(error.type), `${message.interface}.${message.member}: ${error.type ?? ''} ${error.text ?? error.message ?? ''}`.trim())
  )
  try {
    return await Promise.race([call, deadline])
  } finally {
    clearTimeout(timer)
  }
}

function reasonOf(type: string | undefined): AccessibilityFailure['reason'] {
  switch (type) {
    case 'org.freedesktop.DBus.Error.ServiceUnknown':
    case 'org.freedesktop.DBus.Error.UnknownObject':
    case 'org.freedesktop.DBus.Error.NameHasNoOwner':
    case 'org.freedesktop.DBus.Error.NoReply':
      return 'gone'
    case 'org.freedesktop.DBus.Error.UnknownMethod':
    case 'org.freedesktop.DBus.Error.UnknownInterface':
      return 'not_supported_by_widget'
    case 'org.freedesktop.DBus.Error.Timeout':
    case 'org.freedesktop.DBus.Error.TimedOut':
      return 'deadline'
    default:
      return 'failed'
  }
}

/**
 * The accessibility bus: AT_SPI_BUS_ADDRESS if set, else asked of `org.a11y.Bus` on the session bus
 * (started by at-spi-bus-launcher, which D-Bus activates on demand).
 */
export async function connectAccessibilityBus(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<AccessibilityResult<A11yConnection>> {
  const direct = env.AT_SPI_BUS_ADDRESS
  if (direct) {
    const bus = await connectTo(direct, timeoutMs)
    return bus.ok ? ok({ bus: bus.value, enabled: undefined }) : bus
  }
  const sessionAddress = env.DBUS_SESSION_BUS_ADDRESS
  if (!sessionAddress) return failure('no_session_bus', 'DBUS_SESSION_BUS_ADDRESS is not set')
  const session = await connectTo(sessionAddress, timeoutMs)
  if (!session.ok) return session
  try {
    const address = await callBus(
      session.value,
      { destination: 'org.a11y.Bus', path: '/org/a11y/bus', interface: 'org.a11y.Bus', member: 'GetAddress' },
      timeoutMs
    )
    if (!address.ok) {
      const missing = address.reason === 'gone' || address.reason === 'not_supported_by_widget'
      return failure(missing ? 'atspi_missing' : address.reason, `org.a11y.Bus.GetAddress: ${address.detail}`)
    }
    const enabled = await callBus(
      session.value,
      {
        destination: 'org.a11y.Bus',
        path: '/org/a11y/bus',
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.a11y.Status', 'IsEnabled']
      },
      timeoutMs
    )
    const a11y = await connectTo(String(address.value[0]), timeoutMs)
    if (!a11y.ok) return failure('atspi_missing', a11y.detail)
    return ok({ bus: a11y.value, enabled: enabled.ok ? Boolean((enabled.value[0] as { value?: unknown })?.value) : undefined })
  } finally {
    session.value.disconnect()
  }
}
