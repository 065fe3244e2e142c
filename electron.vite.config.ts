import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { version } from './package.json'

/** `deskclaw --version` and app.info report the package version. */
const define = { __APP_VERSION__: JSON.stringify(version) }

export default defineConfig({
  main: {
    define,
    build: {
      // execa is ESM-only; bundle it so the CommonJS main/CLI output loads it on Node 20 and in Electron.
      // zod is bundled so rollup drops what we do not use — its ~60 locales alone were ~20 ms of every
      // command's start (docs/benchmarks.md, "CLI start-up"); the AI and MCP SDKs load their own copy.
      externalizeDeps: { exclude: ['execa', 'zod'] },
      rollupOptions: {
        // Our modules (and the packages they import) run nothing on import that anyone relies on, so a
        // module is bundled where its exports are used, not wherever a folder's index.ts re-exports it:
        // each `deskclaw` command's import() then loads only its own modules (docs/benchmarks.md, "CLI start-up").
        treeshake: { moduleSideEffects: false },
        input: {
          index: resolve('src/main/electron/main.ts'),
          cli: resolve('src/main/cli/main.ts'),
          // The desktop driver runs in its own process (docs/desktop.md): its own entry.
          'desktop-driver': resolve('src/main/desktop/driver/main.ts')
        }
      }
    }
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve('src/preload/index.ts') } }
    }
  },
  renderer: {
    resolve: { alias: { '@renderer': resolve('src/renderer/src') } },
    plugins: [react()],
    build: {
      minify: true,
      rollupOptions: {
        // Two pages over the same bridge, stores and components: the main window and the quick-command palette.
        input: { index: resolve('src/renderer/index.html'), palette: resolve('src/renderer/palette.html') }
      }
    }
  }
})
