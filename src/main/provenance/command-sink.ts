/**
 * What a command line does with data, read from its words (docs/risk.md, "Provenance"): a program
 * that reaches the network sends; a word naming a file that runs persists. This is a reading of
 * words, not of the shell's grammar: the shell analysis judges the command's shape on its own.
 */
import type { CallSink } from './kinds'
import { isRunFile } from './run-files'

/** Programs whose job is to reach another machine. */
const NETWORK_PROGRAMS = new Set([
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'rsync', 'ftp',
  'http', 'https', 'xh', 'aria2c', 'dig', 'nslookup', 'host', 'ping', 'mail', 'sendmail', 'gh', 'aws', 'gcloud', 'az'
])
/** git subcommands that talk to a remote. */
const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'send-email', 'request-pull', 'submodule'])
/** Package managers' subcommands that publish. */
const PUBLISH = /^(npm|pnpm|yarn|twine|cargo|gem|poetry)$/

/** Interpreters given code on the command line: the code can do anything, sending included. */
const INTERPRETERS = /^(python[0-9.]*|node|nodejs|perl|ruby|php|deno|bun|osascript|powershell|pwsh)$/
const INLINE_CODE = new Set(['-c', '-e', '--eval', '-', '-Command', '-r'])

const URL_WORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/i

function words(command: string): string[] {
  return command.split(/[\s;&|()<>`'"]+/).filter((word) => word.length > 0)
}

/** The sink of running `command`: send (to the first URL or host word), persist (to a file that runs), or none. */
export function commandSink(command: string): CallSink {
  const all = words(command)
  const url = all.find((word) => URL_WORD.test(word)) ?? null
  for (let index = 0; index < all.length; index++) {
    const program = all[index]!.replace(/^.*\//, '')
    const next = all[index + 1] ?? ''
    if (NETWORK_PROGRAMS.has(program)) return { kind: 'send', via: 'network', destination: url ?? hostWord(all.slice(index + 1)) }
    if (program === 'git' && all.slice(index + 1, index + 4).some((word) => GIT_NETWORK.has(word))) return { kind: 'send', via: 'network', destination: url ?? 'the git remote' }
    if (INTERPRETERS.test(program) && INLINE_CODE.has(next)) return { kind: 'send', via: 'code', destination: url }
    if (PUBLISH.test(program) && next === 'publish') return { kind: 'send', via: 'network', destination: `${program} registry` }
  }
  if (url) return { kind: 'send', via: 'network', destination: url }
  const runFile = all.find((word) => isRunFile(word))
  return runFile ? { kind: 'persist', via: 'run_file', target: runFile } : { kind: 'none' }
}

function hostWord(rest: string[]): string | null {
  return rest.find((word) => !word.startsWith('-') && /[a-z0-9-]+\.[a-z]{2,}|@/i.test(word)) ?? null
}
