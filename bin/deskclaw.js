#!/usr/bin/env node
// The `deskclaw` command: the CLI is built into out/main/cli.js by `npm run build`.
const { existsSync, realpathSync } = require('node:fs')
const { join, sep } = require('node:path')

const cli = join(__dirname, '..', 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write('deskclaw: not built yet: run `npm run build` in the DeskClaw folder first\n')
  process.exit(2)
}
// Compiled code is kept on disk between runs (docs/benchmarks.md, "CLI start-up"): Node 22.1+ has
// its own compile cache; on older Node, code-cache.js keeps V8's for the build and its packages.
const module_ = require('node:module')
if (typeof module_.enableCompileCache === 'function') module_.enableCompileCache()
// --help and --version load three small files: hashing them (node:crypto) would cost more than it saves.
else if (!['--help', '-h', 'help', '--version', '-v', undefined].includes(process.argv[2])) {
  const roots = [join(__dirname, '..', 'out', 'main'), join(__dirname, '..', 'node_modules')].filter(existsSync).map((root) => realpathSync(root) + sep)
  require('./code-cache').installCodeCache({ roots })
}
require(cli)
