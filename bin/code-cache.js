// A V8 code cache for the CLI's own JavaScript on Node versions without `module.enableCompileCache`
// (Node 20; docs/benchmarks.md, "CLI start-up"). Compiling the build's chunks and the packages they
// load (zod, better-sqlite3, …) was the largest part of `deskclaw run`'s start before its first event.
//
// How: CommonJS files under the given roots are compiled with vm.Script and the cached data kept
// from an earlier process; at exit, the code of each script that had no usable cache is written
// (with the functions the command ran by then, so the next start skips their lazy compilation too).
// Safe by construction:
// - an entry is named by the file's path, size and mtime and the Node/V8 version and architecture,
//   so a rebuilt or updated file never meets an old entry;
// - an entry carries a SHA-1 of its bytes, checked before V8 sees them (V8 itself checks its
//   version, flags and the source's length, not a checksum); a bad or rejected entry is ignored
//   and written again;
// - entries are written to a temporary file and renamed into place, so concurrent CLIs never see
//   half a file; any failure to read or write the cache only means compiling as usual.
'use strict'
const { createHash, randomBytes } = require('node:crypto')
const fs = require('node:fs')
const Module = require('node:module')
const path = require('node:path')
const vm = require('node:vm')

const MAGIC = Buffer.from('DCC1')
const HEADER = MAGIC.length + 20
/** Entries kept at most (a full `run` loads ~350 files; a rebuild's chunks get new names): the oldest written go first. */
const MAX_ENTRIES = 2000

/**
 * The folder for the cache: DESKCLAW_CODE_CACHE (`0`: no cache), else inside DESKCLAW_HOME (tests and
 * benches keep it in their own folder), else the platform's cache folder. Always the user's own folder:
 * V8 runs what a cache holds.
 */
function codeCacheDir(env = process.env) {
  if (env.DESKCLAW_CODE_CACHE === '0') return undefined
  if (env.DESKCLAW_CODE_CACHE) return env.DESKCLAW_CODE_CACHE
  if (env.DESKCLAW_HOME) return path.join(env.DESKCLAW_HOME, 'code-cache')
  const home = require('node:os').homedir()
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'DeskClaw', 'code-cache')
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'DeskClaw', 'code-cache')
  return path.join(env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'deskclaw', 'code-cache')
}

function sha1(data) {
  return createHash('sha1').update(data).digest()
}

/** The cached data for a key, or undefined when there is none or it is damaged. */
function readEntry(file) {
  let bytes
  try {
    bytes = fs.readFileSync(file)
  } catch {
    return undefined
  }
  if (bytes.length <= HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
  const data = bytes.subarray(HEADER)
  return sha1(data).equals(bytes.subarray(MAGIC.length, HEADER)) ? data : undefined
}

function writeEntry(file, data) {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    fs.writeFileSync(temp, Buffer.concat([MAGIC, sha1(data), data]))
    fs.renameSync(temp, file)
  } catch {
    try {
      fs.unlinkSync(temp)
    } catch {
      // never written
    }
  }
}

/** Deletes the oldest entries beyond MAX_ENTRIES, and temporary files a killed process left. */
function prune(dir) {
  try {
    const entries = fs.readdirSync(dir).map((name) => {
      const file = path.join(dir, name)
      return { file, name, mtimeMs: fs.statSync(file).mtimeMs }
    })
    const stale = Date.now() - 60_000
    for (const entry of entries) if (entry.name.endsWith('.tmp') && entry.mtimeMs < stale) fs.rmSync(entry.file, { force: true })
    const kept = entries.filter((entry) => entry.name.endsWith('.bin')).sort((a, b) => b.mtimeMs - a.mtimeMs)
    for (const entry of kept.slice(MAX_ENTRIES)) fs.rmSync(entry.file, { force: true })
  } catch {
    // another CLI pruned at the same time
  }
}

/** The `require` a CommonJS module gets (what Node's loader builds for it). */
function makeRequire(mod) {
  const require = (id) => mod.require(id)
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod)
  require.main = process.mainModule
  require.extensions = Module._extensions
  require.cache = Module._cache
  return require
}

/**
 * Compiles CommonJS files under `roots` through the code cache in `dir`. Does nothing where Node
 * has its own compile cache, or when debugging or source maps need Node's own compilation.
 * Returns counts for tests and measurements: hits (cache used), misses (none or damaged),
 * rejected (V8 refused it), written (at exit).
 */
function installCodeCache({ dir = codeCacheDir(), roots }) {
  const stats = { hits: 0, misses: 0, rejected: 0, written: 0 }
  if (dir === undefined || typeof Module.enableCompileCache === 'function') return stats
  if (process.execArgv.some((arg) => /^--(inspect|enable-source-maps)/.test(arg)) || process.sourceMapsEnabled) return stats
  try {
    fs.mkdirSync(dir, { recursive: true })
  } catch {
    return stats
  }
  const version = `${process.version} ${process.versions.v8} ${process.arch}`
  // V8 accepts a cache only under the flags it was made with, and the CLI sets some as it starts
  // (src/main/cli/main.ts): an entry's key holds the flags set so far, and code compiled before a
  // flag changed is cached as compiled, not as it is at exit.
  const v8 = require('node:v8')
  const setFlags = v8.setFlagsFromString
  let flags = ''
  v8.setFlagsFromString = function (flag) {
    flags += ` ${flag}`
    return setFlags.call(this, flag)
  }
  const pending = []
  const original = Module.prototype._compile

  Module.prototype._compile = function (content, filename) {
    // Node 20 loses a script's import() loader when its code comes from another process's cache
    // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): code with import() is compiled as usual.
    if (!roots.some((root) => filename.startsWith(root)) || content.includes('import(')) {
      return original.call(this, content, filename)
    }
    let key
    try {
      const { size, mtimeMs } = fs.statSync(filename)
      key = path.join(dir, `${sha1(`${filename}\0${size}\0${mtimeMs}\0${version}\0${flags}`).toString('hex')}.bin`)
    } catch {
      return original.call(this, content, filename)
    }
    const cachedData = readEntry(key)
    const script = new vm.Script(Module.wrap(content), { filename, cachedData })
    if (cachedData && !script.cachedDataRejected) stats.hits++
    else {
      if (cachedData) stats.rejected++
      else stats.misses++
      pending.push({ key, script, flags })
    }
    const compiled = script.runInThisContext({ displayErrors: true })
    const entry = pending.at(-1)
    // Made now, in case a flag changes before exit: only what is compiled so far, but usable.
    if (entry?.script === script) entry.early = script.createCachedData()
    return compiled.call(this.exports, this.exports, makeRequire(this), this, filename, path.dirname(filename))
  }

  process.once('exit', () => {
    if (pending.length === 0) return
    for (const entry of pending) {
      try {
        // At exit the cache also holds the functions the command ran (compiled lazily, after load).
        writeEntry(entry.key, entry.flags === flags ? entry.script.createCachedData() : entry.early)
        stats.written++
      } catch {
        // the cache is an optimisation only
      }
    }
    prune(dir)
  })
  return stats
}

module.exports = { codeCacheDir, installCodeCache }
