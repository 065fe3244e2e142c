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
      }
    ]
  }
})
