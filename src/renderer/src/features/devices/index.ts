/** The Devices panel: devices plugged in (live), ports added by path, backends and their fixes, a serial console. */
export { DevicesPanel } from './DevicesPanel'
export { ChipIcon, TerminalIcon } from './icons'
export { SerialConsole } from './SerialConsole'
