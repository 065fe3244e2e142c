import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/** The rule that keeps Electron in the thin shell (docs/architecture.md) must actually fire. */
describe('ESLint electron boundary', () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const source = "import { app } from 'electron'\nexport const name = app.getName()\n"

  it.each(['src/main/agent/sneaky.ts', 'src/main/tools/sneaky.ts', 'src/renderer/src/sneaky.ts', 'src/shared/sneaky.ts'])(
    'forbids importing electron in %s',
    async (filePath) => {
      const [result] = await eslint.lintText(source, { filePath })
      expect(result!.messages.map((m) => m.ruleId)).toContain('no-restricted-imports')
    }
  )

  it.each(['src/main/electron/window.ts', 'src/preload/index.ts'])('allows it in %s', async (filePath) => {
    const [result] = await eslint.lintText(source, { filePath })
    expect(result!.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([])
  })
})
