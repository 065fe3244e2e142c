import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, WALLS } from '../../../eslint-walls.mjs'

/**
 * The walls between rooms (docs/architecture.md, "Which way the arrows run"): for every wall of
 * eslint-walls.mjs — the table eslint.config.mjs builds its rules from — every forbidden room fails
 * as a value import, a type import and a re-export, at the room's top and one folder down, while
 * lower rooms and look-alike names pass and electron stays forbidden.
 */
const eslint = new ESLint({ cwd: process.cwd() })

async function restrictions(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  const fatal = result!.messages.filter((m) => m.fatal)
  expect(fatal, `${filePath} did not parse`).toEqual([])
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

/** A probe file at the top of the room and one a folder down, each with the spelling that reaches src/main/<room> from there. */
function probes(room: string): Array<{ filePath: string; up: string }> {
  return [
    { filePath: `src/main/${room}/wall-probe.ts`, up: '../' },
    { filePath: `src/main/${room}/inner/wall-probe.ts`, up: '../../' }
  ]
}

const VIOLATIONS = WALLS.flatMap(({ room, forbidden }) =>
  forbidden.flatMap((higher) =>
    probes(room).flatMap(({ filePath, up }) => [
      { room, higher, filePath, form: 'value import', code: `import { thing } from '${up}${higher}'\nexport const used = thing\n` },
      { room, higher, filePath, form: 'type import', code: `import type { Thing } from '${up}${higher}/index'\nexport type Used = Thing\n` },
      { room, higher, filePath, form: 'type re-export', code: `export type { Thing } from '${up}${higher}/inner/file'\n` },
      { room, higher, filePath, form: 'inline type import', code: `import { type Thing } from '${up}${higher}'\nexport type Used = Thing\n` }
    ])
  )
)

describe('ESLint walls between rooms', () => {
  it('the table has every wall of issue 33, and each wall forbids at least one room', () => {
    const byRoom = Object.fromEntries(WALLS.map((w) => [w.room, [...w.forbidden].sort()]))
    for (const room of ['desktop', 'devices', 'browser', 'checkpoints', 'runtime', 'store', 'secrets', 'workspace', 'providers', 'chat-apps', 'approvals']) {
      expect(byRoom[room], room).toEqual(['agent', 'app', 'bridge', 'cli', 'tools'])
    }
    expect(byRoom.risk).toEqual(['agent', 'app', 'tools'])
    expect(byRoom.tools).toEqual(['agent', 'app'])
    expect(VIOLATIONS.length).toBe(WALLS.reduce((n, w) => n + w.forbidden.length, 0) * 2 * 4)
  })

  it.each(VIOLATIONS.map((v) => [`${v.filePath}: ${v.form} of ${v.higher}`, v] as const))('forbids %s', async (_, v) => {
    const messages = await restrictions(v.code, v.filePath)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(`src/main/${v.room} may not import src/main/${v.higher}`)
  })

  it.each(WALLS.map((w) => [w.room, w] as const))('%s may import lower rooms and its own folders', async (room, { forbidden }) => {
    const allowed = [
      "import { newId } from '../../shared'",
      "import type { AgentEvent } from '../../shared/bridge'",
      "import { confineToWorkspace } from '../workspace'",
      // Names that only look like a forbidden room: a folder of the room itself, or a longer name.
      ...forbidden.map((higher, i) => `import { own${i} } from './${higher}'`),
      ...forbidden.map((higher, i) => `import { longer${i} } from '../${higher}s-of-mine'`),
      "import { app } from './apps/app'",
      "import { z } from 'zod'"
    ]
    const code = `${allowed.join('\n')}\nexport const used = 1\n`
    expect(await restrictions(code, `src/main/${room}/wall-probe.ts`)).toEqual([])
    // One folder down, `../<room>` is a sibling folder inside the room, not src/main/<room>.
    const inner = forbidden.map((higher, i) => `import { sibling${i} } from '../${higher}'`).join('\n')
    expect(await restrictions(`${inner}\nexport const used = 1\n`, `src/main/${room}/inner/deeper/wall-probe.ts`)).toEqual([])
  })

  it.each(WALLS.flatMap((w) => probes(w.room).map((p) => [p.filePath] as const)))('keeps electron out of %s', async (filePath) => {
    const messages = await restrictions("import { app } from 'electron'\nimport type { IpcMain } from 'electron/main'\nexport const name = [app, {} as IpcMain]\n", filePath)
    expect(messages).toHaveLength(2)
    expect(messages.every((m) => m.includes('Import electron only in src/main/electron/ or src/preload/.'))).toBe(true)
  })

  it(`reaches every file: nothing under src/main/ is more than ${MAX_DEPTH} folders deep`, () => {
    const deepest = (dir: string): number =>
      Math.max(0, ...readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => 1 + deepest(join(dir, e.name))))
    const main = join(process.cwd(), 'src', 'main')
    expect(deepest(main), relative(process.cwd(), main).split(sep).join('/')).toBeLessThanOrEqual(MAX_DEPTH)
  })

})
