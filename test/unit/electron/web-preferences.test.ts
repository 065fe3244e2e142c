import { describe, expect, it } from 'vitest'
import { secureWebPreferences } from '../../../src/main/electron/policy/web-preferences'

describe('secureWebPreferences', () => {
  it('is the security checklist, with the preload', () => {
    expect(secureWebPreferences('/out/preload/index.js')).toEqual({
      preload: '/out/preload/index.js',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false
    })
  })

  it('is a fresh object each time (a window that changes its own cannot weaken the next one)', () => {
    const first = secureWebPreferences('/p')
    first.sandbox = false
    expect(secureWebPreferences('/p').sandbox).toBe(true)
  })
})
