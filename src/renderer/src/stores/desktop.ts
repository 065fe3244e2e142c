import { getDeskclawApi } from '../bridge'
import { createDesktopStore } from './desktop-control'

/** Who holds the keyboard and mouse, for the desktop-control banner (see desktop-control.ts). */
export const useDesktopStore = createDesktopStore(getDeskclawApi)
