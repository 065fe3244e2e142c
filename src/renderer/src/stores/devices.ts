import { getDeskclawApi } from '../bridge'
import { createDevicesStore } from './devices-state'

export * from './devices-state'

/** The Devices panel's list and serial console (see devices-state.ts), over the real bridge. */
export const useDevicesStore = createDevicesStore(getDeskclawApi)
