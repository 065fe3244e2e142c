import { describe, expect, it } from 'vitest'
import { mapCallResult } from '../../../src/main/mcp'

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')

/** How an MCP result becomes a tool output (docs/tools.md, "MCP servers"). */
describe('mapCallResult', () => {
  it('keeps text, turns images into image attachments and other media into files', () => {
    const output = mapCallResult({
      content: [
        { type: 'text', text: 'Here:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'image', data: PNG, mimeType: 'image/bmp' },
        { type: 'audio', data: PNG, mimeType: 'audio/wav' }
      ]
    })
    expect(output.isError).toBe(false)
    expect(output.forLlm).toBe('Here:\n[audio (audio/wav) attached]')
    expect(output.attachments!.map((a) => [a.kind, a.mediaType])).toEqual([
      ['image', 'image/png'],
      ['file', 'image/bmp'],
      ['file', 'audio/wav']
    ])
    expect(Buffer.from(output.attachments![0]!.data).toString('hex')).toBe('89504e470d0a1a0a')
  })

  it('shows text resources with their URI, attaches binary ones and names links', () => {
    const output = mapCallResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///notes/a.md', mimeType: 'text/markdown', text: '# A' } },
        { type: 'resource', resource: { uri: 'file:///data/b.gz', mimeType: 'application/gzip', blob: PNG } },
        { type: 'resource_link', uri: 'https://example.com/c', name: 'C', description: 'the third' }
      ]
    })
    expect(output.forLlm).toBe(
      'Resource file:///notes/a.md (text/markdown):\n# A\n[resource file:///data/b.gz (application/gzip) attached as b.gz]\nResource link: C <https://example.com/c> — the third'
    )
    expect(output.attachments).toEqual([expect.objectContaining({ kind: 'file', name: 'b.gz', mediaType: 'application/gzip' })])
  })

  it('adds structured content unless the text already is that JSON; an isError result is an error', () => {
    expect(mapCallResult({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }).forLlm).toBe('{"a":1}')
    expect(mapCallResult({ content: [], structuredContent: { a: 1 } }).forLlm).toBe('Structured content:\n{\n  "a": 1\n}')
    expect(mapCallResult({ content: [{ type: 'text', text: 'MCP error -32602: bad' }], isError: true })).toMatchObject({ isError: true, forLlm: 'MCP error -32602: bad' })
    expect(mapCallResult({ content: [], isError: true }).forLlm).toBe('The tool failed without saying why.')
    expect(mapCallResult({ content: [] }).forLlm).toBe('The tool returned nothing.')
  })
})
