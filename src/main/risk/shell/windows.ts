/**
 * Windows `cmd` and PowerShell commands, judged by tokens (docs/risk.md). Their paths use
 * backslashes and their names ignore case, so these rules read the words as written (quotes
 * stripped) rather than as bash would unescape them.
 */
import type { Verdict } from '../../../shared'

export interface WindowsHit {
  verdict: Verdict
  rule: string
  message: string
  argIndex: number
}

const DRIVE_ROOT = /^[a-z]:[\\/]*(\*(\.\*)?)?$/i
const SYSTEM_FOLDER = /^[a-z]:[\\/]+(windows|users|program files( \(x86\))?|programdata)([\\/]+(system32|syswow64))?[\\/]*(\*(\.\*)?)?$/i
const HOME_REF = /^(~|\$home|\$env:userprofile|%userprofile%|%homepath%)[\\/]*$/i
/** The Windows folder and the system drive by their variables (`%SystemRoot%`, `$env:windir`, `%SystemDrive%\`). */
const SYSTEM_REF = /^(%systemroot%|%windir%|\$env:systemroot|\$env:windir|%systemdrive%|\$env:systemdrive|%programfiles%|\$env:programfiles|%programdata%)([\\/]+(system32|syswow64))?[\\/]*(\*(\.\*)?)?$/i
const DOWNLOAD = /downloadstring|downloadfile|downloaddata|invoke-webrequest|\biwr\b|invoke-restmethod|\birm\b|net\.webclient|https?:\/\//i

export const isCriticalWindowsTarget = (token: string): boolean =>
  DRIVE_ROOT.test(token) || SYSTEM_FOLDER.test(token) || HOME_REF.test(token) || SYSTEM_REF.test(token) || /^[\\/]$/.test(token)

const hasSwitch = (tokens: string[], pattern: RegExp) => tokens.some((t) => pattern.test(t))

/** Known Windows programs and cmdlets (lowercase, without .exe). */
const WINDOWS_PROGRAMS = new Set([
  'del', 'erase', 'rd', 'format', 'remove-item', 'ri', 'iex', 'invoke-expression', 'start-process', 'saps',
  'set-executionpolicy', 'reg', 'net', 'schtasks', 'takeown', 'icacls', 'cacls', 'cipher', 'vssadmin', 'bcdedit',
  'diskpart', 'format-volume', 'clear-disk', 'initialize-disk', 'remove-partition', 'stop-computer',
  'restart-computer', 'get-childitem', 'gci', 'dir', 'copy-item', 'move-item', 'new-item', 'set-content',
  'add-content', 'out-file', 'wmic', 'wbadmin', 'remove-wmiobject', 'remove-ciminstance', 'rmdir', 'sc', 'certutil', 'bitsadmin', 'mshta', 'rundll32', 'regsvr32',
  'invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm', 'set-itemproperty', 'remove-itemproperty',
  'new-localuser', 'add-localgroupmember', 'disable-computerrestore', 'wevtutil', 'fsutil', 'attrib', 'robocopy', 'xcopy'
])

/** A Windows program as its tables name it: lower case, without `.exe` or `.com` (names ignore case there). */
export function windowsProgramName(token: string): string {
  return token.toLowerCase().replace(/\.(exe|com)$/, '')
}

/** A word as cmd and PowerShell pass it on: surrounding quotes only group. */
export function unquote(token: string): string {
  return token.replace(/^(['"])(.*)\1$/, '$2')
}

export function isWindowsProgram(program: string): boolean {
  return WINDOWS_PROGRAMS.has(windowsProgramName(program))
}

/**
 * Judges one command given as tokens (tokens[0] is the program). Returns null for programs this
 * table does not know; otherwise at least `ask`.
 */
export function windowsHit(written: string[]): WindowsHit | null {
  // Quotes only group; `"C:\Users"` is C:\Users.
  const tokens = written.map(unquote)
  const program = windowsProgramName(tokens[0] ?? '')
  const args = tokens.slice(1)
  const lower = args.map((t) => t.toLowerCase())
  const targetIndex = args.findIndex(isCriticalWindowsTarget)
  const deny = (rule: string, message: string, argIndex = 0): WindowsHit => ({ verdict: 'deny', rule, message, argIndex })
  const ask = (message: string, argIndex = 0): WindowsHit => ({ verdict: 'ask', rule: 'shell.windows', message, argIndex })

  switch (program) {
    case 'format':
      if (args.some((a) => /^[a-z]:$/i.test(a))) return deny('shell.critical.format', 'Formats a drive, erasing it.')
      return ask('format can erase a drive.')
    case 'del':
    case 'erase':
      if (hasSwitch(lower, /^\/s$/) && targetIndex >= 0) return deny('shell.critical.rm-root', `Deletes everything under ${args[targetIndex]}.`, targetIndex + 1)
      return ask(`${program} deletes files.`)
    case 'rd':
    case 'rmdir':
      if (hasSwitch(lower, /^\/s$/) && targetIndex >= 0) return deny('shell.critical.rm-root', `Deletes ${args[targetIndex]} and everything under it.`, targetIndex + 1)
      if (hasSwitch(lower, /^\/s$/)) return ask(`${program} /s deletes a folder tree.`)
      return null
    case 'remove-item':
    case 'ri':
    case 'rm':
    case 'rmdir-item':
      if (hasSwitch(lower, /^-r(ecurse)?$/) && targetIndex >= 0) return deny('shell.critical.rm-root', `Recursively deletes ${args[targetIndex]}.`, targetIndex + 1)
      if (program === 'rm') return null
      return ask('Remove-Item deletes files.')
    case 'format-volume':
    case 'clear-disk':
    case 'initialize-disk':
    case 'remove-partition':
      return deny('shell.critical.disk', `${tokens[0]} erases a disk or volume.`)
    case 'vssadmin':
      if (lower.includes('delete')) return deny('shell.critical.backups', 'Deletes the shadow copies (backups) of the system.')
      // Shrinking the shadow storage deletes the copies that no longer fit.
      if (lower.includes('resize') && lower.includes('shadowstorage')) return deny('shell.critical.backups', 'Shrinks the shadow storage, deleting the shadow copies (backups).')
      return ask('vssadmin manages backups.')
    case 'wbadmin':
      if (lower.includes('delete')) return deny('shell.critical.backups', 'Deletes the system\'s backups or their catalogue.')
      return ask('wbadmin manages backups.')
    case 'remove-wmiobject':
    case 'remove-ciminstance':
      return ask(`${tokens[0]} deletes system objects.`)
    case 'wmic':
      if (lower.includes('shadowcopy') && lower.includes('delete')) return deny('shell.critical.backups', 'Deletes the shadow copies (backups) of the system.')
      return ask('wmic can change the system.')
    case 'bcdedit':
      if (hasSwitch(lower, /^\/delete/)) return deny('shell.critical.boot', 'Deletes boot configuration entries.')
      return ask('bcdedit changes how the machine boots.')
    case 'cipher':
      if (hasSwitch(lower, /^\/w/)) return deny('shell.critical.disk', 'Overwrites all free space on a drive.')
      return ask('cipher changes file encryption.')
    case 'iex':
    case 'invoke-expression':
      if (DOWNLOAD.test(args.join(' '))) return deny('shell.critical.remote-code', 'Downloads code and runs it.')
      return { verdict: 'ask', rule: 'shell.eval', message: 'Invoke-Expression runs text as code.', argIndex: 0 }
    case 'certutil':
      if (hasSwitch(lower, /^[-/]urlcache$/)) return ask('certutil -urlcache downloads files.')
      return ask('certutil changes certificates.')
  }
  if (WINDOWS_PROGRAMS.has(program)) return ask(`${tokens[0]} is a Windows command that is not on the read-only list.`)
  return null
}
