import { describe, expect, it } from 'vitest'
import { defaultSettings, languageFromLocale, resolveSettings, settingsFromEnv } from '../../../src/main/app'
import { apiKeyEnvFor } from '../../../src/main/providers'

describe('settings', () => {
  it('layers saved settings and overrides over the defaults', () => {
    const resolved = resolveSettings({ model: 'saved-model', autonomy: 'full' }, { model: 'flag-model' })
    expect(resolved.model).toBe('flag-model')
    expect(resolved.autonomy).toBe('full')
    expect(resolved.maxIterations).toBe(defaultSettings().maxIterations)
  })

  it('drops a saved value that no longer validates instead of failing', () => {
    const resolved = resolveSettings({ maxIterations: -4 as number, autonomy: 'yolo' as never })
    expect(resolved.maxIterations).toBe(10)
    expect(resolved.autonomy).toBe('supervised')
  })

  it('contextWindow: automatic (0) by default; a saved window of 1024 tokens or more is kept, anything else dropped', () => {
    expect(defaultSettings().contextWindow).toBe(0)
    expect(resolveSettings({ contextWindow: 8192 }).contextWindow).toBe(8192)
    for (const bad of [512, -1, 1.5]) expect(resolveSettings({ contextWindow: bad }).contextWindow).toBe(0)
  })

  it('reads DESKCLAW_* variables and ignores an unknown provider', () => {
    expect(settingsFromEnv({ DESKCLAW_PROVIDER: 'anthropic', DESKCLAW_MODEL: 'm' })).toEqual({ provider: 'anthropic', model: 'm' })
    expect(settingsFromEnv({ DESKCLAW_PROVIDER: 'skynet' })).toEqual({})
  })

  it('the key variable follows the provider unless one is named', () => {
    expect(apiKeyEnvFor({ provider: 'openai', apiKeyEnv: '' })).toBe('OPENAI_API_KEY')
    expect(apiKeyEnvFor({ provider: 'anthropic', apiKeyEnv: ' ' })).toBe('ANTHROPIC_API_KEY')
    expect(apiKeyEnvFor({ provider: 'openai-compatible', apiKeyEnv: 'DEEPSEEK_KEY' })).toBe('DEEPSEEK_KEY')
  })

  it.each([
    ['zh_CN.UTF-8', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en_US.UTF-8', 'en'],
    ['de-DE', 'en']
  ])('locale %s → %s', (locale, language) => {
    expect(languageFromLocale(locale)).toBe(language)
  })
})
