import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { riskySettingChanges, type RiskySettingChange } from '../../src/main/app'
import { createBridgeHandlers } from '../../src/main/bridge'
import { dispatchCall } from '../../src/main/bridge/dispatch'
import { createTempApp } from '../helpers/temp-app'

// Autonomy "full" and the "native" runtime are confirmed in the main process (docs/risk.md).
describe('risky settings', () => {
  it('names exactly the switches that remove a safety net', () => {
    const current = createTempApp('http://127.0.0.1:9').app
    try {
      const settings = current.settings()
      expect(riskySettingChanges(settings, { autonomy: 'full' }).map((c) => c.key)).toEqual(['autonomy'])
      expect(riskySettingChanges(settings, { runtime: 'native', autonomy: 'full' }).map((c) => c.key)).toEqual(['autonomy', 'runtime'])
      expect(riskySettingChanges(settings, { autonomy: 'readonly', runtime: 'docker', model: 'x' })).toEqual([])
      expect(riskySettingChanges({ ...settings, autonomy: 'full' }, { autonomy: 'full' })).toEqual([])
    } finally {
      void current.close()
    }
  })

  it('without anyone to ask, a front end cannot switch them on; with a confirmation it can; turning them off never asks', async () => {
    const refusing = createTempApp('http://127.0.0.1:9')
    const asked: RiskySettingChange[][] = []
    let answer = false
    const confirming = createTempApp('http://127.0.0.1:9', {}, {}, {})
    // The confirmer is part of the app's config: build one with it.
    const withConfirmer = (await import('../../src/main/app')).DeskclawApp.create({
      dataDir: `${confirming.dataDir}-2`,
      overrides: { workspace: confirming.workspace },
      confirmSetting: async (changes) => {
        asked.push(changes)
        return answer
      }
    })
    try {
      const table = createBridgeHandlers(refusing.app, 'websocket')
      const refused = await dispatchCall(table, 'settings.update', { autonomy: 'full' })
      expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
      expect(!refused.ok && refused.error.message).toMatch(/needs a confirmation at this computer/)
      expect(refusing.app.settings().autonomy).toBe('supervised')
      expect(await dispatchCall(table, 'settings.update', { runtime: 'native' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
      expect(await dispatchCall(table, 'settings.update', { autonomy: 'readonly', model: 'other' })).toMatchObject({ ok: true })

      const confirmedTable = createBridgeHandlers(withConfirmer, 'ipc')
      const declined = await dispatchCall(confirmedTable, 'settings.update', { autonomy: 'full', runtime: 'native' })
      expect(declined).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
      expect(asked.at(-1)?.map((c) => [c.key, c.to])).toEqual([
        ['autonomy', 'full'],
        ['runtime', 'native']
      ])
      expect(withConfirmer.settings().autonomy).toBe('supervised')
      answer = true
      expect(await dispatchCall(confirmedTable, 'settings.update', { autonomy: 'full' })).toMatchObject({ ok: true, data: { autonomy: 'full' } })
      const before = asked.length
      expect(await dispatchCall(confirmedTable, 'settings.update', { autonomy: 'supervised' })).toMatchObject({ ok: true })
      expect(asked.length).toBe(before)
    } finally {
      await refusing.dispose()
      await confirming.dispose()
      await withConfirmer.close()
      rmSync(`${confirming.dataDir}-2`, { recursive: true, force: true })
    }
  })
})
