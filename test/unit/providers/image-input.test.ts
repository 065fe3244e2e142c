import { describe, expect, it } from 'vitest'
import { modelAcceptsImages } from '../../../src/main/providers'

const accepts = (provider: 'openai' | 'anthropic' | 'openai-compatible', model: string, imageInput: 'auto' | 'on' | 'off' = 'auto') =>
  modelAcceptsImages({ provider, model, imageInput })

describe('which models are sent images', () => {
  it('follows the setting when it says on or off', () => {
    expect(accepts('openai-compatible', 'qwen3:8b', 'on')).toBe(true)
    expect(accepts('anthropic', 'claude-sonnet-4-5', 'off')).toBe(false)
  })

  it('auto: hosted vision providers yes, text-only OpenAI models no', () => {
    expect(accepts('anthropic', 'claude-sonnet-4-5')).toBe(true)
    expect(accepts('openai', 'gpt-4.1-mini')).toBe(true)
    expect(accepts('openai', 'gpt-3.5-turbo')).toBe(false)
    expect(accepts('openai', 'o3-mini')).toBe(false)
  })

  it('auto on OpenAI-compatible servers: only names that say vision', () => {
    for (const model of ['qwen2.5-vl:7b', 'llava:13b', 'qwen-vl-max', 'gemma3:12b', 'llama3.2-vision', 'minicpm-v', 'gpt-4o']) {
      expect(accepts('openai-compatible', model), model).toBe(true)
    }
    for (const model of ['qwen3:8b', 'deepseek-chat', 'deepseek-reasoner', 'llama3.1:8b', 'mistral', 'kimi-k2']) {
      expect(accepts('openai-compatible', model), model).toBe(false)
    }
  })
})
