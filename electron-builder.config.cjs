/**
 * electron-builder configuration: `npm run dist` (README.md, "Packaging").
 *
 * - The app is out/ (electron-vite's build) and package.json; electron-builder adds the production
 *   node_modules itself and rebuilds their native addons for Electron (npmRebuild, in place:
 *   scripts/dist.mjs then puts Node's better-sqlite3 back so `npm test` keeps working).
 * - Everything lives in app.asar except what is loaded or run from disk as a real file (asarUnpack):
 *   native addons, the shared libraries they link, the WASM grammars.
 * - Fuses harden the Electron binary. runAsNode is off, so `ELECTRON_RUN_AS_NODE` cannot turn the
 *   app into a Node: the packaged CLI is the app's own `--cli` mode (src/main/electron/cli-mode.ts),
 *   reached through the `deskclaw` wrappers in resources/cli/.
 *
 * CommonJS without imports so that both electron-builder and the tests (test/unit/packaging/) load
 * it as it is.
 */
/* global module */

const productName = 'DeskClaw'
/**
 * The Linux GUI binary. Not `deskclaw`: on Linux that name is the command line (/usr/bin/deskclaw,
 * resources/cli/deb/deskclaw), as it is for `npm link` users.
 */
const linuxExecutableName = 'deskclaw-app'

/**
 * Files that must exist outside app.asar (app.asar.unpacked): the OS, not Electron's asar layer,
 * opens them — dlopen of a .node and of the libraries it links, exec of a helper binary.
 * The desktop driver (a utilityProcess, out/main/desktop-driver.js) stays in app.asar and loads
 * these through Electron's asar-aware require.
 */
const asarUnpack = [
  // SQLite (the conversation store), rebuilt for Electron's ABI.
  '**/node_modules/better-sqlite3/build/Release/*.node',
  // sharp and its libvips: sharp-<os>-<arch>.node links @img/sharp-libvips-<os>-<arch>/lib by rpath.
  '**/node_modules/sharp/**/*',
  '**/node_modules/@img/**/*',
  // nut-js's native input/capture (libnut.node per OS) and macOS's permission checks.
  '**/node_modules/@nut-tree-fork/libnut-*/**/*',
  '**/node_modules/@nut-tree-fork/node-mac-permissions/**/*',
  // tree-sitter (the shell risk analyser) as WASM: the runtime and the bash grammar.
  '**/node_modules/web-tree-sitter/*.wasm',
  '**/node_modules/tree-sitter-bash/*.wasm',
  // OCR language data: the OCR worker opens it through links in a temp folder
  // (src/main/desktop/ocr/language-data.ts), and a link cannot point into the archive.
  '**/node_modules/@tesseract.js-data/*/4.0.0_best_int/*.traineddata.gz',
  // nut-js's clipboard provider ships helper executables (DeskClaw uses its own clipboard, but a
  // binary that might be run must never sit in the archive).
  '**/node_modules/clipboardy/fallbacks/**/*'
]

/** The fuses flipped in the packaged Electron binary (@electron/fuses, via electron-builder). */
const electronFuses = {
  // No ELECTRON_RUN_AS_NODE: the binary is never a general-purpose Node (the CLI uses --cli).
  runAsNode: false,
  // Chromium's cookie store encrypted with the OS keychain, as Chrome does.
  enableCookieEncryption: true,
  // No NODE_OPTIONS / NODE_EXTRA_CA_CERTS injection into the main process.
  enableNodeOptionsEnvironmentVariable: false,
  // No --inspect / --inspect-brk / SIGUSR1 debugger on the main process.
  enableNodeCliInspectArguments: false,
  // app.asar is checked against the hash electron-builder records (macOS and Windows).
  enableEmbeddedAsarIntegrityValidation: true,
  // The app is only ever loaded from app.asar (not app/ or default_app.asar).
  onlyLoadAppFromAsar: true,
  // The default V8 snapshot for every process (there is no browser-specific one).
  loadBrowserProcessSpecificV8Snapshot: false,
  // No extra file:// powers: the UI is served from app://deskclaw (src/main/electron/protocol.ts).
  grantFileProtocolExtraPrivileges: false
  // wasmTrapHandlers (@electron/fuses 2.x) is not an electron-builder option: it keeps Electron's
  // default, on (WebAssembly bounds checks by guard pages), which is the safe value.
}

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.deskclaw',
  productName,
  copyright: 'Copyright © DeskClaw contributors',
  directories: {
    // Icons and installer assets (scripts/make-icons.sh); build/native/ is the dev-only Electron
    // build of better-sqlite3 and is never packaged (it is not in `files`).
    buildResources: 'build',
    output: 'dist'
  },
  files: [
    'out/**/*',
    'package.json',
    // What the app never loads from its dependencies: native sources, the bash grammar's native
    // binding (only its .wasm is used), debug builds, docs.
    '!**/node_modules/tree-sitter-bash/{src,bindings,prebuilds,build,queries}/**',
    '!**/node_modules/tree-sitter-bash/{binding.gyp,grammar.js}',
    '!**/node_modules/web-tree-sitter/debug/**',
    '!**/node_modules/better-sqlite3/{deps,src}/**',
    '!**/node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps}/**',
    '!**/node_modules/better-sqlite3/build/Release/test_extension.node',
    '!**/node_modules/cpu-features/deps/**',
    '!**/node_modules/*/{CHANGELOG.md,README.md,readme.md,HISTORY.md}',
    // libnut ships one package per OS; only this one's is loaded (${platform}: darwin, linux, win32).
    '!**/node_modules/@nut-tree-fork/libnut-!(${platform})/**'
  ],
  // Shipped beside app.asar (process.resourcesPath) as real files:
  // - the tray icons (src/main/electron/tray.ts looks in <resources>/tray);
  // - the sandbox image's Dockerfile, for `docker build -t deskclaw/sandbox:1 <resources>/sandbox`.
  extraResources: [
    { from: 'resources/tray', to: 'tray', filter: ['*.png'] },
    { from: 'resources/sandbox', to: 'sandbox' },
    // The USB id database devices are named from (docs/devices.md).
    { from: 'resources/usb-ids', to: 'usb-ids' },
    // The chat app profiles send-text follows (docs/desktop.md, "Chat app profiles").
    { from: 'resources/desktop-apps', to: 'desktop-apps', filter: ['*.json'] }
  ],
  asar: true,
  asarUnpack,
  // Native addons are rebuilt against Electron's headers for each target arch; a prebuilt binary is
  // used when the addon publishes one for this Electron (faster, same result).
  npmRebuild: true,
  buildDependenciesFromSource: false,
  electronFuses,

  linux: {
    target: ['AppImage', 'deb'],
    executableName: linuxExecutableName,
    icon: 'build/icons',
    category: 'Utility',
    synopsis: 'A desktop AI agent that asks before anything risky',
    // resources/cli/deskclaw: the CLI for the unpacked app and for `ln -s` (any install folder).
    extraResources: [{ from: 'resources/cli/deskclaw', to: 'cli/deskclaw' }]
  },
  deb: {
    // /usr/bin/deskclaw is the command line (the GUI is /usr/bin/deskclaw-app, linked by the
    // package's after-install script). fpm maps the wrapper into the package as a plain file.
    fpm: [`${__dirname}/resources/cli/deb/deskclaw=/usr/bin/deskclaw`],
    recommends: ['libayatana-appindicator3-1 | libappindicator3-1', 'bubblewrap', 'xclip | xsel']
  },
  appImage: {
    artifactName: '${productName}-${version}-${arch}.${ext}'
  },

  mac: {
    target: [{ target: 'dmg', arch: ['universal'] }],
    category: 'public.app-category.productivity',
    extraResources: [{ from: 'resources/cli/deskclaw', to: 'cli/deskclaw' }],
    // The universal app is the x64 and arm64 builds merged. Native binaries that are the same
    // file in both (per-arch sharp/libvips packages, libnut's own universal binary) are allowed.
    x64ArchFiles: '**/node_modules/{@img/**,@nut-tree-fork/libnut-darwin/**,@nut-tree-fork/node-mac-permissions/**}',
    singleArchFiles: '**/node_modules/@img/**'
  },
  dmg: {
    artifactName: '${productName}-${version}-universal.${ext}'
  },

  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    // resources\cli\deskclaw.cmd: put that folder on PATH to get `deskclaw` in a terminal.
    extraResources: [{ from: 'resources/cli/deskclaw.cmd', to: 'cli/deskclaw.cmd' }]
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    artifactName: '${productName}-Setup-${version}.${ext}'
  }
}
