#!/usr/bin/env node
// The `deskclaw` command: the CLI is built into out/main/cli.js by `npm run build`.
const { existsSync } = require('node:fs')
const { join } = require('node:path')

const cli = join(__dirname, '..', 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write('deskclaw: not built yet: run `npm run build` in the DeskClaw folder first\n')
  process.exit(2)
}
// Node 22.1+ keeps the compiled CLI on disk between runs (docs/benchmarks.md, "CLI start-up"); Node 20 has no such cache.
require('node:module').enableCompileCache?.()
require(cli)
