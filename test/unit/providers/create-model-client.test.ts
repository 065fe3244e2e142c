import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/shared'
import {
  createModelClient,
  DEFAULT_BASE_URLS,
  defaultModelFor,
  type ProviderConfig
} from '../../../src/main/providers'

function notConfigured(config: ProviderConfig): string {
  try {
    createModelClient(config)
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('NOT_CONFIGURED')
    return (error as AppError).message
  }
  throw new Error('expected NOT_CONFIGURED')
}

function modelInfo(config: ProviderConfig): { provider: string; modelId: string } {
  const client = createModelClient(config)
  return { provider: client.provider, modelId: client.modelId }
}

describe('createModelClient', () => {
  it('builds a Chat Completions client for openai', () => {
    expect(modelInfo({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test' })).toEqual({
      provider: 'openai.chat',
      modelId: 'gpt-4.1-mini'
    })
  })

  it('builds a Messages client for anthropic', () => {
    expect(modelInfo({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant' })).toEqual({
      provider: 'anthropic.messages',
      modelId: 'claude-sonnet-4-5'
    })
  })

  it('builds an OpenAI-compatible client without a key (Ollama, LM Studio)', () => {
    const info = modelInfo({ provider: 'openai-compatible', model: 'qwen3:8b', baseUrl: 'http://localhost:11434/v1' })
    expect(info).toEqual({ provider: 'openai-compatible.chat', modelId: 'qwen3:8b' })
  })

  it('asks for a model when none is set', () => {
    const message = notConfigured({ provider: 'openai', model: '  ', apiKey: 'sk-test' })
    expect(message).toMatch(/model/i)
    expect(message).toContain('--model')
  })

  it('asks for an API key naming the variable to set', () => {
    expect(notConfigured({ provider: 'openai', model: 'gpt-4.1-mini' })).toContain('OPENAI_API_KEY')
    expect(notConfigured({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: '' })).toContain('ANTHROPIC_API_KEY')
    expect(notConfigured({ provider: 'openai', model: 'm', apiKeyEnv: 'MY_KEY' })).toContain('MY_KEY')
    expect(notConfigured({ provider: 'openai', model: 'm' })).toContain('--api-key-env')
  })

  it('asks for a base URL for an OpenAI-compatible server', () => {
    expect(notConfigured({ provider: 'openai-compatible', model: 'qwen3:8b' })).toContain('--base-url')
  })

  it('does not read the key from the environment behind the caller’s back', () => {
    const saved = process.env.OPENAI_API_KEY
    process.env.OPENAI_API_KEY = 'sk-from-env'
    try {
      expect(notConfigured({ provider: 'openai', model: 'gpt-4.1-mini' })).toContain('OPENAI_API_KEY')
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY
      else process.env.OPENAI_API_KEY = saved
    }
  })
})

describe('defaults', () => {
  it('has a base URL and a model suggestion for every provider', () => {
    expect(DEFAULT_BASE_URLS).toEqual({
      openai: 'https://api.openai.com/v1',
      anthropic: 'https://api.anthropic.com/v1',
      'openai-compatible': 'http://localhost:11434/v1'
    })
    for (const provider of ['openai', 'anthropic', 'openai-compatible'] as const) {
      expect(defaultModelFor(provider)).toMatch(/\S/)
    }
  })
})
