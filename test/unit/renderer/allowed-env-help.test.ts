/**
 * The Settings help text names the default set of the environment allowlist: every variable the
 * table passes from the app's environment on Linux and macOS, in English and Chinese, so the text
 * cannot drift from runtime/command-env.ts.
 */
import { describe, expect, it } from 'vitest'
import { COMMAND_ENV_ALLOWLIST, LOCALE_CATEGORIES } from '../../../src/main/runtime/command-env'
import { en } from '../../../src/renderer/src/i18n/en'
import { zhCN } from '../../../src/renderer/src/i18n/zh-CN'

describe('the allowlist help text', () => {
  it('names every default variable (LC_* for the locale categories) in both languages', () => {
    const locale = new Set<string>(LOCALE_CATEGORIES)
    const named = COMMAND_ENV_ALLOWLIST.filter((variable) => variable.platform === undefined && !locale.has(variable.name)).map((v) => v.name)
    for (const hint of [en['settings.allowedEnvHint'], zhCN['settings.allowedEnvHint']]) {
      for (const name of [...named, 'LC_*']) expect(hint, name).toMatch(new RegExp(`(^|[^A-Z_])${name.replace('*', '\\*')}([^A-Z_]|$)`))
    }
  })
})
