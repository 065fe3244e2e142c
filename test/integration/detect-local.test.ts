import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { detectLocalServers, type LocalServerProbe } from '../../src/main/providers'

// First-run setup: local model servers that answer are offered with their models; others are not.
describe('detectLocalServers', () => {
  const servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  })
  const serve = async (handler: Parameters<typeof createServer>[1]): Promise<string> => {
    const server = createServer(handler)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  it('lists what an Ollama and an LM Studio server answer, and skips silent, broken and absent ones', async () => {
    const ollama = await serve((_req, res) => res.end(JSON.stringify({ models: [{ name: 'qwen3:8b' }, { name: 'llava:7b' }, { name: 42 }] })))
    const lmStudio = await serve((_req, res) => res.end(JSON.stringify({ data: [{ id: 'qwen2.5-7b-instruct' }] })))
    const broken = await serve((_req, res) => res.end('<html>not a model server</html>'))
    const silent = await serve(() => {}) // never answers
    const probes: LocalServerProbe[] = [
      { name: 'Ollama', baseUrl: `${ollama}/v1`, modelsUrl: `${ollama}/api/tags`, kind: 'ollama-tags' },
      { name: 'LM Studio', baseUrl: `${lmStudio}/v1`, modelsUrl: `${lmStudio}/v1/models`, kind: 'openai-models' },
      { name: 'Ollama', baseUrl: `${broken}/v1`, modelsUrl: `${broken}/api/tags`, kind: 'ollama-tags' },
      { name: 'LM Studio', baseUrl: `${silent}/v1`, modelsUrl: `${silent}/v1/models`, kind: 'openai-models' },
      { name: 'Ollama', baseUrl: 'http://127.0.0.1:9/v1', modelsUrl: 'http://127.0.0.1:9/api/tags', kind: 'ollama-tags' }
    ]
    expect(await detectLocalServers(probes, 300)).toEqual([
      { name: 'Ollama', baseUrl: `${ollama}/v1`, models: ['qwen3:8b', 'llava:7b'] },
      { name: 'LM Studio', baseUrl: `${lmStudio}/v1`, models: ['qwen2.5-7b-instruct'] }
    ])
  })
})
