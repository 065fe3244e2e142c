/** settingsProblems refuses listing the model key's variable in allowedEnv (docs/runtimes.md, "The environment allowlist"). */
import { describe, expect, it } from 'vitest'
import { modelKeyEnvOf, settingsProblems } from '../../../src/shared/bridge/settings'

describe('allowedEnv and the model key', () => {
  it('refuses the variable Settings names, else the provider’s conventional one', () => {
    expect(settingsProblems({ provider: 'openai', apiKeyEnv: 'MY_KEY', allowedEnv: ['GH_PAT', 'MY_KEY'] }).allowedEnv).toBe(
      "MY_KEY holds the model's API key, which never reaches a command"
    )
    expect(settingsProblems({ provider: 'anthropic', apiKeyEnv: ' ', allowedEnv: ['ANTHROPIC_API_KEY'] }).allowedEnv).toMatch(/^ANTHROPIC_API_KEY holds/)
    // Another provider's conventional variable is not this model's key.
    expect(settingsProblems({ provider: 'anthropic', apiKeyEnv: '', allowedEnv: ['OPENAI_API_KEY', 'GH_PAT'] })).toEqual({})
    expect(modelKeyEnvOf({ provider: 'openai-compatible' })).toBe('DESKCLAW_API_KEY')
  })
})
