/**
 * Changing `mcp.json` (docs/tools.md, "MCP servers"): read, change one server, write — always
 * against the file as it is on disk now, so a server added by hand in an editor survives a save
 * from Settings or the CLI. A file that cannot be read as a servers object is never overwritten:
 * the change is refused with the reason, and a copy of the file is kept beside it.
 */
import { copyFile, readFile, rename, writeFile } from 'node:fs/promises'
import { AppError, errorMessage, type McpServerConfig } from '../../shared'

/** The copy kept beside the file before each write, and of a file refused as invalid. */
export const mcpBackupPath = (path: string): string => `${path}.bak`

type RawFile = Record<string, unknown> & { mcpServers?: Record<string, unknown> }

/** The file as it is on disk, or why it cannot be changed safely (a copy kept first). */
async function readForChange(path: string): Promise<RawFile | null> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new AppError('VALIDATION_FAILED', `${path} could not be read (${errorMessage(error)}); nothing was changed.`)
  }
  let why: string | null = null
  let detail = ''
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) why = 'it is not a JSON object'
    else {
      const servers = (parsed as RawFile).mcpServers
      if (servers !== undefined && (!servers || typeof servers !== 'object' || Array.isArray(servers))) why = '"mcpServers" is not an object of servers by name'
    }
  } catch (error) {
    detail = errorMessage(error)
    why = `it is not valid JSON (${detail})`
  }
  if (why === null) return parsed as RawFile
  const backup = mcpBackupPath(path)
  await copyFile(path, backup)
  throw new AppError('VALIDATION_FAILED', `${path} was not changed: ${why}. A copy is kept in ${backup}; fix the file or remove it, then try again.`, {
    key: 'errors.mcp.fileInvalid',
    params: { file: path, backup, detail }
  })
}

/**
 * Applies one change to the servers in the file on disk: `config` set under `name` (in the place
 * of `previousName` when renamed), or `name` removed when `config` is null. Other servers — also
 * ones this process never read, or could not use — and the file's other keys are kept as they are.
 */
export async function changeMcpServer(path: string, name: string, config: McpServerConfig | null, previousName?: string): Promise<void> {
  const raw = (await readForChange(path)) ?? {}
  const servers: Record<string, unknown> = {}
  let placed = false
  for (const [key, value] of Object.entries(raw.mcpServers ?? {})) {
    if (key === previousName || key === name) {
      if (config && !placed) servers[name] = config
      placed = true
    } else servers[key] = value
  }
  if (config && !placed) servers[name] = config
  const text = `${JSON.stringify({ ...raw, mcpServers: servers }, null, 2)}\n`
  if (raw.mcpServers !== undefined || Object.keys(raw).length > 0) await copyFile(path, mcpBackupPath(path))
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, text, { mode: 0o600 })
  await rename(temp, path)
}
