import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { changeMcpServer, mcpBackupPath } from '../../../src/main/mcp'

/** Issue 38, bug 2: a change from Settings or the CLI is made to mcp.json as it is on disk. */
function file(text: string | null): string {
  const path = join(mkdtempSync(join(tmpdir(), 'deskclaw-mcp-write-')), 'mcp.json')
  if (text !== null) writeFileSync(path, text)
  return path
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { mcpServers: Record<string, unknown> }

describe('changeMcpServer', () => {
  it('keeps servers and keys it did not change, also ones it could not use, and a rename keeps the place', async () => {
    const path = file(JSON.stringify({ note: 'mine', mcpServers: { hand: { command: 'a' }, broken: { args: 3 }, old: { command: 'b' }, last: { url: 'http://x' } } }))
    await changeMcpServer(path, 'new', { command: 'c' }, 'old')
    expect(read(path)).toEqual({ note: 'mine', mcpServers: { hand: { command: 'a' }, broken: { args: 3 }, new: { command: 'c' }, last: { url: 'http://x' } } })
    expect(Object.keys(read(path).mcpServers)).toEqual(['hand', 'broken', 'new', 'last'])
    expect(read(mcpBackupPath(path)).mcpServers).toHaveProperty('old')
    await changeMcpServer(path, 'hand', null)
    expect(Object.keys(read(path).mcpServers)).toEqual(['broken', 'new', 'last'])
  })

  it('creates a missing file', async () => {
    const path = file(null)
    await changeMcpServer(path, 'one', { command: 'x' })
    expect(read(path)).toEqual({ mcpServers: { one: { command: 'x' } } })
    expect(existsSync(mcpBackupPath(path))).toBe(false)
  })

  for (const [what, text] of [
    ['cut short', '{ "mcpServers": { "a": '],
    ['an array', '[1, 2]'],
    ['servers not an object', '{ "mcpServers": [] }']
  ] as const) {
    it(`refuses to overwrite a file that is ${what}, says why and keeps a copy`, async () => {
      const path = file(text)
      await expect(changeMcpServer(path, 'one', { command: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', text: { key: 'errors.mcp.fileInvalid' } })
      expect(readFileSync(path, 'utf8')).toBe(text)
      expect(readFileSync(mcpBackupPath(path), 'utf8')).toBe(text)
    })
  }
})
