/**
 * Remote code in two steps (docs/risk.md, item 9): the files a fetcher in this command writes
 * (`curl -o i.sh`, `wget URL`, `curl … > f`, `curl … | tee f`), and running one of them later in
 * the same command line.
 */
import { normalise } from '../paths'
import type { AddFinding, Invocation, Scope } from './analysis'
import { basenameOf } from './critical'
import { FETCHERS } from './programs'
import { currentCwd } from './scope'
import type { Word } from './words'

/** Files a fetcher (`argv`) writes: its output options, the URL's name where it saves under it, its `>` redirections. */
export function recordDownloads(scope: Scope, argv: Word[], inv: Invocation): void {
  const { ctx, downloaded } = scope
  const cwd = currentCwd(scope)
  const program = basenameOf(argv[0]!.value ?? '').toLowerCase()
  const values = argv.map((w) => w.value)
  const urls = values.filter((v): v is string => v !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(v))
  const save = (file: string | null | undefined) => {
    if (file && file !== '-') downloaded.add(normalise(file, ctx, cwd))
  }
  const remoteName = () => urls.forEach((url) => save(url.replace(/[?#].*$/, '').split('/').pop() || null))
  let named = false
  for (let i = 1; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === undefined) continue
    // curl: -o FILE (also bundled, `-fsSLo FILE`), -O / --remote-name (the URL's name); wget: -O FILE; Invoke-WebRequest: -OutFile FILE.
    if (/^--(output|output-document)=/.test(v)) save(v.slice(v.indexOf('=') + 1))
    else if (/^(--output|--output-document|-outfile|-destination)$/i.test(v)) save(values[i + 1])
    else if (/^-[a-zA-Z]*o$/.test(v) || (program !== 'curl' && /^-[a-zA-Z]*O$/.test(v))) save(values[i + 1])
    else if (/^-[oO].+/.test(v) && !v.startsWith('--')) save(v.slice(2))
    else if (program === 'curl' && (/^-[a-zA-Z]*O[a-zA-Z]*$/.test(v) || v === '--remote-name' || v === '--remote-name-all')) remoteName()
    else continue
    named = true
  }
  // wget with no -O saves under the URL's name; certutil -urlcache -f URL FILE saves to FILE.
  if (program === 'wget' && !named) remoteName()
  if (program === 'certutil') save(values.at(-1))
  if ((program === 'bitsadmin' || program === 'start-bitstransfer') && values.length > 2) save(values.at(-1))
  for (const r of inv.redirects) {
    if (/>/.test(r.operator) && r.target?.value) downloaded.add(normalise(r.target.value, ctx, cwd))
  }
}

/** `curl … | tee i.sh`: tee writes what was downloaded. */
export function recordTeeOfDownload(scope: Scope, argv: Word[], inv: Invocation): void {
  if (!inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) return
  for (const w of argv.slice(1)) if (w.value && !w.value.startsWith('-')) scope.downloaded.add(normalise(w.value, scope.ctx, currentCwd(scope)))
}

/** Running a file this command downloaded: remote code in two steps. */
export function checkDownloadedRun(scope: Scope, word: Word, add: AddFinding): void {
  if (word.value === null || scope.downloaded.size === 0) return
  for (const cwd of scope.cwds) {
    if (scope.downloaded.has(normalise(word.value, scope.ctx, cwd))) {
      return add('shell.critical.remote-code', `Runs ${word.value}, which this command downloads: code from the network, unseen.`, 'deny', word)
    }
  }
}
