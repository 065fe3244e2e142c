/// <reference types="vite/client" />
import type { DeskclawApi } from '../../shared/bridge'

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent when the UI is served by `deskclaw web`. */
    deskclaw?: DeskclawApi
  }
}

export {}
