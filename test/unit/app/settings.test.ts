import { describe, expect, it } from 'vitest'
import { defaultSettings, languageFromLocale, resolveSettings, settingsFromEnv } from '../../../src/main/app'
import { SettingsSchema, type Settings } from '../../../src/shared'
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

  it('keeps or drops each saved field exactly as parsing the whole object with it would (over every field)', () => {
    // resolveSettings checks a field with its own schema: right only while the object has no check across fields.
    expect((SettingsSchema as unknown as { _zod: { def: { checks?: unknown[] } } })._zod.def.checks ?? []).toEqual([])
    const defaults = defaultSettings()
    // For every field: its default, a value of another type, and one of the same type that may break a bound.
    const candidates = (value: unknown): unknown[] => [
      value,
      null,
      typeof value === 'number' ? -1 : typeof value === 'string' ? 7 : 'text',
      typeof value === 'number' ? 1e12 : typeof value === 'string' ? `${value} ` : [],
      typeof value === 'string' ? 'x'.repeat(10_000) : {}
    ]
    let kept = 0
    let dropped = 0
    for (const key of Object.keys(SettingsSchema.shape) as Array<keyof Settings>) {
      for (const value of candidates(defaults[key])) {
        const wholeObject = SettingsSchema.safeParse({ ...defaults, [key]: value })
        const resolved = resolveSettings({ [key]: value } as Partial<Settings>)
        expect(resolved[key], `${key} = ${JSON.stringify(value)?.slice(0, 40)}`).toEqual(wholeObject.success ? wholeObject.data[key] : defaults[key])
        if (wholeObject.success) kept++
        else dropped++
      }
    }
    // The generator reaches both outcomes.
    expect(kept).toBeGreaterThan(40)
    expect(dropped).toBeGreaterThan(40)
    // A key the schema does not know is not in the result.
    expect(Object.hasOwn(resolveSettings({ notASetting: 1 } as Partial<Settings>), 'notASetting')).toBe(false)
  })
})
