/**
 * The electron-builder configuration (electron-builder.config.cjs), loaded as electron-builder loads
 * it: targets per OS, what goes into app.asar and what must stay outside it, the fuses, the CLI
 * wrappers and the npm scripts. Globs are matched with the same minimatch electron-builder uses.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '..', '..', '..')
const require = createRequire(join(root, 'package.json'))
const config = require('./electron-builder.config.cjs')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
// The minimatch app-builder-lib itself resolves (its own dependency, not whatever is hoisted).
const { Minimatch } = createRequire(require.resolve('app-builder-lib/package.json'))('minimatch') as {
  Minimatch: new (pattern: string, options: object) => { match(path: string): boolean }
}

const matches = (pattern: string, path: string): boolean => new Minimatch(pattern, { dot: true }).match(path)
/** electron-builder's `files`: the last pattern that matches a path decides (a `!` excludes). */
function included(patterns: string[], path: string): boolean {
  let result = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (matches(negated ? pattern.slice(1) : pattern, path)) result = !negated
  }
  return result
}
const unpacked = (path: string): boolean => config.asarUnpack.some((pattern: string) => matches(pattern, path))
/** Patterns with electron-builder's ${platform} macro expanded. */
const filesFor = (platform: string): string[] => config.files.map((pattern: string) => pattern.replace('${platform}', platform))

describe('electron-builder configuration', () => {
  it('names the app', () => {
    expect(config.appId).toBe('app.deskclaw')
    expect(config.productName).toBe('DeskClaw')
  })

  it('builds an AppImage and a deb on Linux, a universal dmg on macOS, an NSIS installer on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }])
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }])
  })

  it('packs the app into app.asar and rebuilds native modules for Electron', () => {
    expect(config.asar).toBe(true)
    expect(config.npmRebuild).toBe(true)
  })

  describe('files', () => {
    it('takes the build and package.json, never the sources, tests or tooling', () => {
      const files = filesFor('linux')
      for (const path of ['out/main/index.js', 'out/main/cli.js', 'out/main/desktop-driver.js', 'out/preload/index.js', 'out/renderer/index.html', 'package.json']) {
        expect(included(files, path), path).toBe(true)
      }
      for (const path of [
        'src/main/electron/main.ts',
        'src/renderer/src/App.tsx',
        'test/unit/packaging/electron-builder.test.ts',
        'bench/desktop.bench.ts',
        'docs/architecture.md',
        'scripts/dist.mjs',
        'build/native/electron-45.4.1/better_sqlite3.node',
        'electron.vite.config.ts',
        'tsconfig.json'
      ]) {
        expect(included(files, path), path).toBe(false)
      }
    })

    it("keeps only this OS's libnut and the runtime parts of the native packages", () => {
      const linux = filesFor('linux')
      const nm = 'node_modules'
      expect(included(linux, `${nm}/@nut-tree-fork/libnut-darwin/build/Release/libnut.node`)).toBe(false)
      expect(included(linux, `${nm}/@nut-tree-fork/libnut-win32/build/Release/libnut.node`)).toBe(false)
      // A positive pattern for node_modules is electron-builder's own; here: not excluded.
      const notExcluded = (patterns: string[], path: string) => included(['**/*', ...patterns], path)
      expect(notExcluded(linux, `${nm}/@nut-tree-fork/libnut-linux/build/Release/libnut.node`)).toBe(true)
      expect(notExcluded(filesFor('darwin'), `${nm}/@nut-tree-fork/libnut-darwin/build/Release/libnut.node`)).toBe(true)
      expect(notExcluded(filesFor('win32'), `${nm}/@nut-tree-fork/libnut-win32/build/Release/libnut.node`)).toBe(true)
      expect(notExcluded(linux, `${nm}/tree-sitter-bash/tree-sitter-bash.wasm`)).toBe(true)
      expect(notExcluded(linux, `${nm}/tree-sitter-bash/src/parser.c`)).toBe(false)
      expect(notExcluded(linux, `${nm}/better-sqlite3/build/Release/better_sqlite3.node`)).toBe(true)
      expect(notExcluded(linux, `${nm}/better-sqlite3/deps/sqlite3/sqlite3.c`)).toBe(false)
    })
  })

  describe('asarUnpack', () => {
    const nm = 'node_modules'
    it.each([
      ['better-sqlite3', `${nm}/better-sqlite3/build/Release/better_sqlite3.node`],
      ['sharp', `${nm}/sharp/lib/sharp.js`],
      ['sharp (the addon)', `${nm}/@img/sharp-linux-x64/lib/sharp-linux-x64.node`],
      ['sharp (libvips)', `${nm}/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8.17.3`],
      ['sharp (macOS)', `${nm}/@img/sharp-darwin-arm64/lib/sharp-darwin-arm64.node`],
      ['sharp (Windows)', `${nm}/@img/sharp-win32-x64/lib/libvips-42.dll`],
      ['libnut (Linux)', `${nm}/@nut-tree-fork/libnut-linux/build/Release/libnut.node`],
      ['libnut (macOS)', `${nm}/@nut-tree-fork/libnut-darwin/build/Release/libnut.node`],
      ['libnut (Windows)', `${nm}/@nut-tree-fork/libnut-win32/build/Release/libnut.node`],
      ['macOS permissions', `${nm}/@nut-tree-fork/node-mac-permissions/build/Release/permissions.node`],
      ['web-tree-sitter', `${nm}/web-tree-sitter/web-tree-sitter.wasm`],
      ['tree-sitter-bash', `${nm}/tree-sitter-bash/tree-sitter-bash.wasm`],
      ['clipboardy helpers', `${nm}/clipboardy/fallbacks/linux/xsel`]
    ])('keeps %s outside the archive', (_name, path) => {
      expect(unpacked(path)).toBe(true)
    })

    it('covers every native addon and WASM file the installed runtime packages carry', () => {
      const found: string[] = []
      const walk = (dir: string): void => {
        for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
          const path = `${dir}/${entry.name}`
          if (entry.isDirectory()) walk(path)
          else if (/\.(node|wasm)$|\.so(\.\d+)*$|\.dylib$|\.dll$/.test(entry.name) && !/\/(obj|obj\.target|debug)\//.test(path)) found.push(path)
        }
      }
      const runtime = [
        'better-sqlite3/build',
        'sharp',
        '@img',
        '@nut-tree-fork/libnut-linux',
        '@nut-tree-fork/libnut-darwin',
        '@nut-tree-fork/libnut-win32',
        'web-tree-sitter',
        'tree-sitter-bash'
      ]
      for (const dir of runtime) if (existsSync(join(root, nm, dir))) walk(`${nm}/${dir}`)
      const required = found.filter((path) => !path.endsWith('test_extension.node') && !path.includes('tree-sitter-bash/prebuilds/'))
      expect(required.length).toBeGreaterThanOrEqual(5)
      expect(required.filter((path) => !unpacked(path))).toEqual([])
    })

    it('leaves the app code itself in the archive (the driver loads the unpacked files through asar)', () => {
      expect(unpacked('out/main/index.js')).toBe(false)
      expect(unpacked('out/main/desktop-driver.js')).toBe(false)
    })
  })

  describe('electronFuses', () => {
    it.each([
      ['runAsNode', false],
      ['enableCookieEncryption', true],
      ['enableNodeOptionsEnvironmentVariable', false],
      ['enableNodeCliInspectArguments', false],
      ['enableEmbeddedAsarIntegrityValidation', true],
      ['onlyLoadAppFromAsar', true],
      ['loadBrowserProcessSpecificV8Snapshot', false],
      ['grantFileProtocolExtraPrivileges', false]
    ])('sets %s to %s', (fuse, value) => {
      expect(config.electronFuses[fuse]).toBe(value)
    })

    it('decides every fuse @electron/fuses knows (wasmTrapHandlers keeps its default, on)', async () => {
      const { FuseV1Options } = (await import('@electron/fuses')) as { FuseV1Options: Record<string, string | number> }
      const known = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)))
      const configured = Object.keys(config.electronFuses).map((key) => key.toLowerCase())
      const leftAtDefault = ['wasmtraphandlers']
      expect(known.map((name) => name.toLowerCase()).filter((name) => !configured.includes(name) && !leftAtDefault.includes(name))).toEqual([])
    })

    it('disables file:// privileges only because no window loads a file:// page', () => {
      const dir = join(root, 'src', 'main', 'electron')
      const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(join(dir, file), 'utf8'))
      expect(sources.filter((source) => /\.loadFile\(|['"`]file:\/\//.test(source))).toEqual([])
    })
  })

  describe('the deskclaw command for packaged users', () => {
    const executable = (path: string) => (statSync(join(root, path)).mode & 0o111) !== 0

    it('installs /usr/bin/deskclaw from the deb, running the GUI binary in --cli mode', () => {
      expect(config.linux.executableName).toBe('deskclaw-app')
      const [mapping] = config.deb.fpm as string[]
      const [source, target] = mapping!.split('=')
      expect(target).toBe('/usr/bin/deskclaw')
      expect(source).toBe(`${root}/resources/cli/deb/deskclaw`)
      expect(executable('resources/cli/deb/deskclaw')).toBe(true)
      const script = readFileSync(source!, 'utf8')
      expect(script).toContain(`/opt/${config.productName}/${config.linux.executableName} --cli "$@"`)
    })

    it('ships resources/cli/deskclaw (macOS, Linux) and deskclaw.cmd (Windows) beside the app', () => {
      expect(config.mac.extraResources).toContainEqual({ from: 'resources/cli/deskclaw', to: 'cli/deskclaw' })
      expect(config.linux.extraResources).toContainEqual({ from: 'resources/cli/deskclaw', to: 'cli/deskclaw' })
      expect(config.win.extraResources).toContainEqual({ from: 'resources/cli/deskclaw.cmd', to: 'cli/deskclaw.cmd' })
      expect(executable('resources/cli/deskclaw')).toBe(true)
      const posix = readFileSync(join(root, 'resources/cli/deskclaw'), 'utf8')
      expect(posix).toContain(`/MacOS/${config.productName}"`)
      expect(posix).toContain(`/${config.linux.executableName}"`)
      expect(posix).toContain('--cli "$@"')
      const cmd = readFileSync(join(root, 'resources/cli/deskclaw.cmd'), 'utf8')
      expect(cmd).toContain(`"%~dp0..\\..\\${config.productName}.exe" --cli %*`)
      expect(cmd).toContain('exit /b %ERRORLEVEL%')
    })

    it('ships the tray icons and the sandbox Dockerfile as real files beside app.asar', () => {
      expect(config.extraResources).toContainEqual({ from: 'resources/tray', to: 'tray', filter: ['*.png'] })
      expect(config.extraResources).toContainEqual({ from: 'resources/sandbox', to: 'sandbox' })
      expect(config.extraResources).toContainEqual({ from: 'resources/desktop-apps', to: 'desktop-apps', filter: ['*.json'] })
    })

    it('ships every extra resource it names', () => {
      for (const section of [config, config.linux, config.mac, config.win]) {
        for (const { from } of section.extraResources ?? []) expect(existsSync(join(root, from)), from).toBe(true)
      }
    })
  })

  it('has the icons electron-builder derives each OS icon from', () => {
    const pngSize = (path: string): [number, number] => {
      const bytes = readFileSync(join(root, path))
      expect(bytes.subarray(1, 4).toString()).toBe('PNG')
      return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
    }
    expect(config.directories.buildResources).toBe('build')
    expect(pngSize('build/icon.png')).toEqual([1024, 1024])
    expect(config.linux.icon).toBe('build/icons')
    for (const size of [16, 32, 48, 64, 128, 256, 512]) expect(pngSize(`build/icons/${size}x${size}.png`)).toEqual([size, size])
  })

  describe('npm scripts', () => {
    it('`npm run dist` builds, then runs electron-builder for this OS without publishing', () => {
      expect(pkg.scripts.dist).toBe('npm run build && node scripts/dist.mjs')
      const dist = readFileSync(join(root, 'scripts', 'dist.mjs'), 'utf8')
      expect(dist).toContain("'--config', 'electron-builder.config.cjs', '--publish', 'never'")
      expect(dist).not.toMatch(/'--(linux|mac|win)'/)
    })

    it('`npm run dist:dir` builds the unpacked app only', () => {
      expect(pkg.scripts['dist:dir']).toBe('npm run build && node scripts/dist.mjs --dir')
    })

    it('depends on a supported Electron and electron-builder 26', () => {
      expect(Number(/\d+/.exec(pkg.devDependencies.electron)![0])).toBeGreaterThanOrEqual(43)
      expect(pkg.devDependencies['electron-builder']).toMatch(/^\^26\./)
    })
  })
})
