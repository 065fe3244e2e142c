// The walls between the rooms of src/main (docs/architecture.md, "Which way the arrows run"): a room
// never imports a room above it, not even a type. eslint.config.mjs builds its per-folder
// `no-restricted-imports` rules from this table, and test/unit/lint/eslint-walls.test.ts walks
// the same table to prove every wall fails on a violation.

/** Rooms that offer one capability; they know nothing of who composes or drives them. */
export const CAPABILITY_ROOMS = [
  'desktop',
  'devices',
  'browser',
  'checkpoints',
  'runtime',
  'store',
  'secrets',
  'workspace',
  'providers',
  'chat-apps',
  'approvals',
  'provenance'
]

/** Each room of src/main/ and the rooms of src/main/ it may not import. */
export const WALLS = [
  ...CAPABILITY_ROOMS.map((room) => ({ room, forbidden: ['app', 'agent', 'tools', 'bridge', 'cli'] })),
  { room: 'risk', forbidden: ['tools', 'agent', 'app'] },
  { room: 'tools', forbidden: ['agent', 'app'] }
]

/** Electron is reachable only through the thin shell and the preload (DESIGN §1); every rule below carries it too. */
const ELECTRON_MESSAGE = 'Import electron only in src/main/electron/ or src/preload/.'
export const ELECTRON_PATHS = [{ name: 'electron', message: ELECTRON_MESSAGE }]
export const ELECTRON_PATTERNS = [{ group: ['electron/*'], message: ELECTRON_MESSAGE }]

/** How many folders deep below src/main/ the walls reach (src/main/desktop/tasks/x.ts is 2); the test checks no file is deeper. */
export const MAX_DEPTH = 6

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')

/**
 * What an import of src/main/<forbidden> looks like from a file `depth` folders below src/main/:
 * exactly `depth` steps up and then the room (`../app`, `../../app/services`, `./../app`), or any
 * specifier that names `main/<forbidden>` (`../../main/app`, an `@main/app` alias). A folder of the
 * same name inside the room (`./apps/`, `../shared/bridge`) is another place and is not caught.
 */
export function wallRegex(forbidden, depth) {
  const room = escape(forbidden)
  return `^(\\./)?(\\.\\./){${depth}}${room}(/.*)?$|(^|[/@])main/${room}(/.*)?$`
}

/** The `no-restricted-imports` options for a file `depth` folders below src/main/<room>/… */
export function wallOptions({ room, forbidden }, depth) {
  return {
    paths: ELECTRON_PATHS,
    patterns: [
      ...ELECTRON_PATTERNS,
      ...forbidden.map((higher) => ({
        regex: wallRegex(higher, depth),
        message: `src/main/${room} may not import src/main/${higher}, not even a type: a lower room never imports a higher one (docs/architecture.md, "Which way the arrows run").`
      }))
    ]
  }
}

/** One flat-config object per room and depth: files exactly `depth` folders below src/main/ get that depth's patterns. */
export function wallConfigs() {
  return WALLS.flatMap((wall) =>
    Array.from({ length: MAX_DEPTH }, (_, i) => ({
      files: [`src/main/${wall.room}/${'*/'.repeat(i)}*.{ts,tsx,mts,cts}`],
      rules: { 'no-restricted-imports': ['error', wallOptions(wall, i + 1)] }
    }))
  )
}
