import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll } from 'vitest'

/** The `deskclaw` command as users run it (bin/deskclaw.js loads the built out/main/cli.js). */
export const cliPath = join(process.cwd(), 'bin', 'deskclaw.js')

/** CLI tests spawn the built command: fail at once with the fix when it is not built. */
export function requireBuiltCli(): void {
  beforeAll(() => {
    if (!existsSync(join(process.cwd(), 'out', 'main', 'cli.js'))) {
      throw new Error('The CLI is not built: run `npm run build` (npm test does it first).')
    }
  })
}
