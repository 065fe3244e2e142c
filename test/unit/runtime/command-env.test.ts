/**
 * The environment allowlist (docs/runtimes.md), walked with generated process environments: on
 * every runtime each name of the table passes (with the value its rule says), every other name —
 * random ones and the credential probes — is dropped, the user's names pass, and the model's key
 * never does, by name or by value.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COMMAND_ENV_ALLOWLIST, commandEnv, type CommandEnvRuntime } from '../../../src/main/runtime/command-env'
import { SANDBOX_PATH } from '../../../src/main/runtime/docker-container-spec'
import { CREDENTIAL_ENV, CREDENTIAL_ENV_NAMES, OLD_SECRET_NAME_PATTERN } from '../../helpers/credential-env'

const RUNTIMES: readonly CommandEnvRuntime[] = ['native', 'bwrap', 'sandbox-exec', 'docker']
const TEMP: Record<CommandEnvRuntime, string | undefined> = { native: undefined, bwrap: '/tmp', 'sandbox-exec': '/private/tmp/deskclaw-cmd-x', docker: undefined }
const tableNames = (platform: NodeJS.Platform) =>
  new Set(COMMAND_ENV_ALLOWLIST.filter((v) => v.platform === undefined || v.platform === platform).map((v) => v.name))
const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/)

function run(runtime: CommandEnvRuntime, appEnv: NodeJS.ProcessEnv, extra: Partial<Parameters<typeof commandEnv>[0]> = {}) {
  return commandEnv({ runtime, appEnv, tempDir: TEMP[runtime], platform: 'linux', ...extra })
}

describe('the environment allowlist', () => {
  it('passes every name of the table on each runtime, with the value its rule gives', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const appEnv = Object.fromEntries(COMMAND_ENV_ALLOWLIST.map((v) => [v.name, `app-${v.name}`]))
      for (const runtime of RUNTIMES) {
        const env = commandEnv({ runtime, appEnv, tempDir: TEMP[runtime], platform })
        for (const variable of COMMAND_ENV_ALLOWLIST) {
          const rule = runtime === 'docker' ? variable.docker : variable.host
          const expected =
            variable.platform !== undefined && variable.platform !== platform
              ? undefined
              : rule === 'none'
                ? undefined
                : rule === 'app'
                  ? `app-${variable.name}`
                  : rule === 'runtime-temp'
                    ? (TEMP[runtime] ?? `app-${variable.name}`)
                    : rule.fixed
          expect(env[variable.name], `${variable.name} on ${runtime} (${platform})`).toBe(expected)
        }
        expect(Object.keys(env).every((name) => tableNames(platform).has(name))).toBe(true)
      }
    }
  })

  it('docker gets its own PATH, HOME, TMPDIR and LANG, not the host’s', () => {
    const env = run('docker', { PATH: '/host/bin', HOME: '/home/me', TMPDIR: '/host/tmp', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8', TZ: 'Asia/Shanghai' })
    expect(env).toEqual({ PATH: SANDBOX_PATH, HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8', TZ: 'Asia/Shanghai' })
  })

  it('drops every name that is not in the table (random names and the credential probes) on each runtime', () => {
    fc.assert(
      fc.property(fc.dictionary(envName, fc.string({ maxLength: 40 }), { maxKeys: 60 }), (random) => {
        const appEnv = { ...random, ...CREDENTIAL_ENV, PATH: '/usr/bin:/bin' }
        for (const runtime of RUNTIMES) {
          const env = run(runtime, appEnv)
          for (const name of Object.keys(env)) expect(tableNames('linux').has(name), `${name} on ${runtime}`).toBe(true)
          for (const name of [...Object.keys(random), ...CREDENTIAL_ENV_NAMES]) {
            if (!tableNames('linux').has(name)) expect(env[name], `${name} on ${runtime}`).toBeUndefined()
          }
        }
      }),
      { numRuns: 200 }
    )
  })

  it('the probes: the old blocklist let most through, the allowlist none', () => {
    const leakedBefore = CREDENTIAL_ENV_NAMES.filter((name) => !OLD_SECRET_NAME_PATTERN.test(name))
    expect(CREDENTIAL_ENV_NAMES).toHaveLength(40)
    expect(leakedBefore.length).toBeGreaterThanOrEqual(20)
    for (const runtime of RUNTIMES) expect(Object.keys(run(runtime, CREDENTIAL_ENV))).toEqual(runtime === 'docker' ? ['PATH', 'HOME', 'TMPDIR', 'LANG'] : runtime === 'native' ? [] : ['TMPDIR'])
  })

  it('passes the names the user added, but never over the runtime’s own PATH, HOME and TMPDIR', () => {
    fc.assert(
      fc.property(fc.uniqueArray(envName, { maxLength: 10 }), (added) => {
        const appEnv: Record<string, string> = { ...Object.fromEntries(added.map((name) => [name, `value-${name}`])), ...CREDENTIAL_ENV, HOME: '/home/me', PATH: '/host/bin' }
        for (const runtime of RUNTIMES) {
          const env = run(runtime, appEnv, { allowEnv: [...added, 'GH_PAT', 'HOME', 'NOT_SET_ANYWHERE'] })
          expect(env.GH_PAT).toBe(CREDENTIAL_ENV.GH_PAT)
          expect('NOT_SET_ANYWHERE' in env).toBe(false)
          for (const name of added) if (!tableNames('linux').has(name)) expect(env[name]).toBe(appEnv[name])
          expect(env.HOME).toBe(runtime === 'docker' ? '/tmp' : '/home/me')
          if (runtime === 'docker') expect(env.PATH).toBe(SANDBOX_PATH)
        }
      }),
      { numRuns: 100 }
    )
  })

  it('never passes the model key: not by its name even when listed, not under another name, not from the request', () => {
    const key = CREDENTIAL_ENV.OPENAI_API_KEY
    const appEnv = { ...CREDENTIAL_ENV, MY_COPY: key, WRAPPED: `Bearer ${key}`, PATH: '/usr/bin' }
    const modelKeys = () => ({ names: ['OPENAI_API_KEY'], values: [key, undefined, 'short'] })
    for (const runtime of RUNTIMES) {
      const env = run(runtime, appEnv, {
        allowEnv: ['OPENAI_API_KEY', 'MY_COPY', 'WRAPPED', 'STRIPE_KEY'],
        modelKeys,
        request: { OPENAI_API_KEY: key, FROM_TOOL: 'ok', ALSO: key }
      })
      expect(Object.values(env).some((value) => value.includes(key)), runtime).toBe(false)
      expect(env).toMatchObject({ STRIPE_KEY: CREDENTIAL_ENV.STRIPE_KEY, FROM_TOOL: 'ok' })
      expect(env.PATH).toBeDefined() // "short" (under 8 characters) is not looked for inside values
    }
  })

  it('on Windows matches names case-insensitively (Path) and passes the system variables cmd.exe needs', () => {
    const env = commandEnv({
      runtime: 'native',
      appEnv: { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', ComSpec: 'cmd.exe', GH_PAT: 'x', myKey: 'k' },
      platform: 'win32',
      allowEnv: ['MYKEY'],
      modelKeys: () => ({ names: ['mykey'], values: [] })
    })
    expect(env).toEqual({ PATH: 'C:\\Windows', SystemRoot: 'C:\\Windows', ComSpec: 'cmd.exe' })
    expect(run('native', { SystemRoot: '/x', ComSpec: 'y' })).toEqual({})
  })
})
