/**
 * Building blocks for the family corpus (see `index.ts`).
 *
 * A *family* is one idea ("read ~/.ssh/id_rsa", "rm -rf a system folder") expanded into variants
 * by the combinators below: path spellings, case variants, globs, quoting, changing directory
 * first, wrappers. Expectations come from the written principles (docs/risk.md, the issue), never
 * from the engine's implementation.
 */

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type Verdict = 'allow' | 'ask' | 'deny'
/** benign: must be allowed; dangerous: ask or deny, never allow; catastrophic: deny. */
export type CaseClass = 'benign' | 'dangerous' | 'catastrophic'
/**
 * The numbered principle a case belongs to: 2–6 are the first issue's; 11–18 are issue 21's
 * families 1–8 (programs that run files or stdin, option spelling, git beyond the workspace's
 * repository, secret-shaped names, other machines, catastrophe by effect, needless questions).
 */
export type Principle = 2 | 3 | 4 | 5 | 6 | 11 | 12 | 13 | 14 | 15 | 17 | 18

export const PRINCIPLE_NAMES: Record<Principle, string> = {
  2: 'reads of secrets by any spelling',
  3: 'known-safe programs with unsafe options',
  4: 'semantics of the shell that runs it',
  5: 'catastrophic commands in other spellings',
  6: 'everyday diagnostics run silently',
  11: 'issue 21/1: programs that run a file or stdin',
  12: 'issue 21/2: option spelling as the program parses it',
  13: 'issue 21/3: git beyond the workspace repository',
  14: 'issue 21/4: secret-shaped names by any spelling',
  15: 'issue 21/5: other machines are network',
  17: 'issue 21/7: catastrophe by effect, whatever the spelling',
  18: 'issue 21/8: needless questions (everyday read-only work)'
}

export interface FamilyCase {
  command: string
  expect: Verdict
  /** Only for catastrophic cases whose target the engine cannot resolve: at least `ask`. */
  minimum?: 'ask'
  class: CaseClass
  family: string
  principle: Principle
}

/** The real temporary home and workspace the cases run against. */
export interface Fixture {
  root: string
  /** `<root>/home/tester` */
  home: string
  /** `<home>/project`, the cwd of every command. */
  ws: string
}

const FILES: Record<string, string> = {
  // secrets outside the workspace
  '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n-----END OPENSSH PRIVATE KEY-----\n',
  '.ssh/id_rsa.pub': 'ssh-rsa AAAAnot-real tester@box\n',
  '.ssh/config': 'Host box\n  User tester\n',
  '.aws/credentials': '[default]\naws_access_key_id = AKIANOTREAL\naws_secret_access_key = not-real\n',
  '.netrc': 'machine example.com login tester password not-real\n',
  '.config/someapp/token': 'tok_not_real\n',
  '.local/share/x/history': 'login --password not-real\n',
  '.cache/y/auth.json': '{"token":"not-real"}\n',
  '.bash_history': 'export GITHUB_TOKEN=not-real\n',
  '.bashrc': 'alias ll="ls -la"\n',
  // a harmless sibling folder
  'projects/a/README.md': '# a\n',
  // the workspace
  'project/src/index.ts': 'export const answer = 42\n',
  'project/README.md': '# project\n\nTODO: write docs\n',
  'project/.env': 'API_KEY=not-a-real-key\n',
  'project/config/master.key': 'not-a-real-master-key\n',
  'project/certs/server.pem': '-----BEGIN PRIVATE KEY-----\nnot-real\n-----END PRIVATE KEY-----\n',
  'project/build/app.js': 'console.log(42)\n',
  'project/node_modules/.keep': '',
  // issue 21: near-names of secrets, a nested repository and a bare one whose configs run programs
  'project/.dev.vars': 'API_TOKEN=not-real\n',
  'project/vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
  'project/vendor/lib/.git/config': '[core]\n\tfsmonitor = touch /tmp/deskclaw-pwned\n',
  'project/vendor/lib/README.md': '# lib\n',
  'repos/bare.git/HEAD': 'ref: refs/heads/main\n',
  'repos/bare.git/config': '[core]\n\tbare = true\n\tfsmonitor = touch /tmp/deskclaw-pwned\n',
  'repos/bare.git/objects/.keep': '',
  'project/docs/guide.md': '# guide\n'
}

export function createFixture(): Fixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-families-')))
  const home = path.join(root, 'home', 'tester')
  const ws = path.join(home, 'project')
  for (const [rel, text] of Object.entries(FILES)) {
    const file = path.join(home, rel)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
  }
  fs.chmodSync(path.join(home, '.ssh', 'id_rsa'), 0o600)
  // A symlink inside the workspace that points out of it, at a secret folder.
  fs.symlinkSync('../.ssh', path.join(ws, 'link-out'))
  return { root, home, ws }
}

export function disposeFixture(fx: Fixture): void {
  fs.rmSync(fx.root, { recursive: true, force: true })
}

// ───────────────────────────── case constructors ─────────────────────────────

export type Draft = Omit<FamilyCase, 'principle'>

export function benign(family: string, commands: Iterable<string>): Draft[] {
  return [...commands].map((command) => ({ command, expect: 'allow', class: 'benign', family }))
}

export function dangerous(family: string, commands: Iterable<string>): Draft[] {
  return [...commands].map((command) => ({ command, expect: 'ask', class: 'dangerous', family }))
}

export function catastrophic(family: string, commands: Iterable<string>): Draft[] {
  return [...commands].map((command) => ({ command, expect: 'deny', class: 'catastrophic', family }))
}

/** Catastrophic in effect, but the target is dynamic (`$(dirname "$PWD")`): at least ask. */
export function unresolvable(family: string, commands: Iterable<string>): Draft[] {
  return [...commands].map((command) => ({
    command,
    expect: 'deny',
    minimum: 'ask',
    class: 'catastrophic',
    family
  }))
}

/** Stamps the principle on every draft and drops exact repeats (first one wins). */
export function finish(principle: Principle, drafts: readonly Draft[]): FamilyCase[] {
  const seen = new Set<string>()
  const out: FamilyCase[] = []
  for (const d of drafts) {
    if (seen.has(d.command)) continue
    seen.add(d.command)
    out.push({ ...d, principle })
  }
  return out
}

// ───────────────────────────── combinators ─────────────────────────────

/** `list[i % n]`: deterministic rotation, so a cross product can be sampled instead of exploded. */
export function rotate<T>(list: readonly T[], i: number): T {
  return list[i % list.length]!
}

/** Every `f(a, b)` for a in as, b in bs. */
export function cross<A, B>(as: readonly A[], bs: readonly B[], f: (a: A, b: B) => string): string[] {
  return as.flatMap((a) => bs.map((b) => f(a, b)))
}

/** Each item paired with a rotating partner: `f(items[i], partners[i % n])`. */
export function zipRotate<A, B>(items: readonly A[], partners: readonly B[], f: (a: A, b: B, i: number) => string): string[] {
  return items.map((a, i) => f(a, rotate(partners, i), i))
}

/** `.ssh/id_rsa` → `.SSH/ID_RSA`, `.Ssh/Id_rsa` (macOS and Windows file systems ignore case). */
export function caseVariants(rel: string): string[] {
  const title = rel
    .split('/')
    .map((seg) => seg.replace(/[a-z]/u, (ch) => ch.toUpperCase()))
    .join('/')
  return [rel.toUpperCase(), title].filter((v) => v !== rel)
}

/**
 * Globs that match `rel` in the real file system: the last letter of every segment as `?`,
 * every segment cut short with `*`, and one letter as a bracket class.
 */
export function globVariants(rel: string): string[] {
  const segs = rel.split('/')
  const q = segs.map((s) => s.replace(/[a-z0-9](?=[^a-z0-9]*$)/iu, '?')).join('/')
  const star = segs.map((s) => (s.length > 3 ? s.slice(0, Math.min(3, s.length - 1)) + '*' : s)).join('/')
  const last = segs.length - 1
  const bracket = segs.map((s, i) => (i === last ? s.replace(/[a-z]/u, (ch) => `[${ch}]`) : s)).join('/')
  return [...new Set([q, star, bracket])].filter((v) => v !== rel)
}

/** Quoting that bash removes: `'…'`, `"…"`, a backslash before an ordinary letter. */
export function quoteVariants(word: string): string[] {
  const i = word.search(/(?<=.)[a-z]/u)
  const escaped = i > 0 ? `${word.slice(0, i)}\\${word.slice(i)}` : word
  return [`'${word}'`, `"${word}"`, escaped].filter((v) => v !== word)
}

/**
 * Ways to name `~/<rel>` from the workspace `~/project`: tilde, `$HOME` in its forms, the
 * absolute path, `.`/`..`/`//` detours, `~+` (= $PWD), `~user`, quoting after the tilde.
 */
export function homeSpellings(fx: Fixture, rel: string): string[] {
  return [
    `~/${rel}`,
    `$HOME/${rel}`,
    `"$HOME/${rel}"`,
    `\${HOME}/${rel}`,
    `"\${HOME}"/${rel}`,
    `${fx.home}/${rel}`,
    `'${fx.home}/${rel}'`,
    `~//${rel}`,
    `~/./${rel}`,
    `~/projects/../${rel}`,
    `../${rel}`,
    `./../${rel}`,
    `src/../../${rel}`,
    `~+/../${rel}`,
    `$PWD/../${rel}`,
    `"$PWD"/../${rel}`,
    `~tester/${rel}`,
    `~/'${rel}'`,
    `~/"${rel}"`,
    `${fx.home}//${rel}`
  ]
}

/** Ways to name `<workspace>/<rel>`. */
export function workspaceSpellings(fx: Fixture, rel: string): string[] {
  return [
    rel,
    `./${rel}`,
    `"${rel}"`,
    `'${rel}'`,
    `src/../${rel}`,
    `~+/${rel}`,
    `"$PWD/${rel}"`,
    `~/project/${rel}`,
    `$HOME/project/${rel}`,
    `${fx.ws}/${rel}`
  ]
}

/**
 * Wrappers that do not ask by themselves (so a wrapped read shows whether the inner command is
 * still judged). `sudo`/`nohup` are left to the catastrophic classes, where they change nothing.
 */
export const QUIET_WRAPPERS = ['env', 'nice', 'timeout 5', 'command', 'time', 'stdbuf -oL', 'nice -n 10', 'env LC_ALL=C']

/** Every wrapper, including the ones that ask by themselves. */
export const ALL_WRAPPERS = [...QUIET_WRAPPERS, 'sudo', 'nohup', 'sudo -u root', 'doas']
