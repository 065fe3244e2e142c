/**
 * The chat app profiles in force (docs/desktop.md, "Chat app profiles"): the ones shipped in
 * resources/desktop-apps/, replaced id by id by the user's own files in <data folder>/desktop-apps/.
 * A file that does not parse is reported with the reason and skipped; it never stops the others.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { findResource } from '../../resources'
import { ChatAppProfileSchema, profileProblems, type ChatAppProfile } from './profile'

export type ProfileSource = 'builtin' | 'user' | 'file'

export interface LoadedProfile {
  profile: ChatAppProfile
  source: ProfileSource
  file: string
}

export interface ProfileProblem {
  file: string
  error: string
}

export interface ChatAppCatalog {
  profiles: LoadedProfile[]
  problems: ProfileProblem[]
}

/** The shipped profiles' folder: $DESKCLAW_DESKTOP_APPS, else resources/desktop-apps beside the app. */
export function builtinProfilesDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.DESKCLAW_DESKTOP_APPS || findResource('desktop-apps')
}

/** The user's profiles live here; a file with a shipped profile's id replaces it. */
export function userProfilesDir(dataDir: string): string {
  return join(dataDir, 'desktop-apps')
}

/** One profile file, parsed and checked; an Error whose message says what is wrong and where. */
export function readProfileFile(file: string): ChatAppProfile {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(code === 'ENOENT' ? `${file}: no such file` : `${file}: not JSON (${(error as Error).message})`)
  }
  const parsed = ChatAppProfileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? issue.path.join('.') : 'the profile'
    throw new Error(`${file}: ${where}: ${issue?.message ?? 'invalid'}`)
  }
  const problems = profileProblems(parsed.data)
  if (problems.length > 0) throw new Error(`${file}: ${problems[0]}`)
  return parsed.data
}

function readFolder(dir: string | undefined, source: ProfileSource, catalog: ChatAppCatalog, byId: Map<string, LoadedProfile>): void {
  if (!dir) return
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') catalog.problems.push({ file: dir, error: (error as Error).message })
    return
  }
  for (const name of names) {
    const file = join(dir, name)
    try {
      const profile = readProfileFile(file)
      const existing = byId.get(profile.id)
      if (existing && existing.source === source) {
        catalog.problems.push({ file, error: `id "${profile.id}" is also in ${basename(existing.file)}; this file was skipped` })
        continue
      }
      byId.set(profile.id, { profile, source, file })
    } catch (error) {
      catalog.problems.push({ file, error: (error as Error).message })
    }
  }
}

/** Shipped profiles, then the user's (same id: the user's wins), then an extra file for one task (wins over both). */
export function loadChatApps(options: { dataDir?: string; builtinDir?: string; extraFile?: string; env?: NodeJS.ProcessEnv } = {}): ChatAppCatalog {
  const catalog: ChatAppCatalog = { profiles: [], problems: [] }
  const byId = new Map<string, LoadedProfile>()
  const builtin = options.builtinDir ?? builtinProfilesDir(options.env)
  if (!builtin) catalog.problems.push({ file: 'resources/desktop-apps', error: 'the shipped chat app profiles were not found' })
  readFolder(builtin, 'builtin', catalog, byId)
  if (options.dataDir) readFolder(userProfilesDir(options.dataDir), 'user', catalog, byId)
  if (options.extraFile) {
    // A profile given for one task must load: the caller reports this error and stops.
    const profile = readProfileFile(options.extraFile)
    byId.set(profile.id, { profile, source: 'file', file: options.extraFile })
  }
  catalog.profiles = [...byId.values()].sort((a, b) => a.profile.id.localeCompare(b.profile.id))
  return catalog
}
