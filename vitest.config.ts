import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          environment: 'node',
          // better-sqlite3 is a native addon: forks, not worker threads (SIGSEGV at exit otherwise).
          pool: 'forks',
          testTimeout: 30_000,
          benchmark: { include: ['bench/**/*.bench.ts'] }
        }
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          benchmark: { include: [] }
        }
      },
      {
        test: {
          name: 'desktop',
          // Real X11: Xvfb + openbox (test/helpers/xvfb.ts), real input with xdotool/nut-js.
          include: ['test/desktop/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // One file at a time: the tests share the screen, the pointer, the keyboard and the clipboard.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          benchmark: { include: [] }
        }
      }
    ]
  }
})
