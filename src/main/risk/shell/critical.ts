import path from 'node:path'
import { expandGlob, normalise, resolveReal, type PathContext } from '../paths'

/**
 * The critical catalogue (docs/risk.md): commands denied at every autonomy level, judged on the
 * normalised argv after unwrapping — so `sudo timeout 5 r''m -fr "$HOME"` is caught like `rm -rf ~`.
 */
export interface CriticalHit {
  rule: string
  message: string
  /** Index into argv of the word that fired (the target), or 0 for the program. */
  argIndex: number
}

const SYSTEM_DIRS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/run',
  '/sbin', '/srv', '/sys', '/usr', '/var', '/Users', '/System', '/Library', '/Applications', '/Volumes', '/private',
  '/usr/bin', '/usr/lib', '/usr/local', '/usr/sbin', '/usr/share', '/var/lib', '/mnt', '/media', '/snap',
  // macOS, WSL, Nix, EFI and the rest of the places whose loss stops the machine
  '/usr/lib64', '/usr/lib32', '/usr/libexec', '/usr/include', '/usr/local/bin', '/usr/local/lib', '/opt/homebrew', '/nix', '/nix/store',
  '/private/var', '/private/etc', '/private/tmp', '/System/Library', '/Library/Application Support', '/cores', '/efi', '/boot/efi',
  '/var/log', '/var/db', '/var/cache', '/var/spool', '/var/mail', '/etc/init.d', '/etc/systemd', '/lost+found',
  '/mnt/c', '/mnt/c/Windows', '/mnt/c/Users', '/mnt/c/Program Files', '/mnt/wsl',
  // macOS system volumes (docs/risk.md, item 9)
  '/System/Volumes', '/System/Volumes/Data', '/System/Volumes/Preboot', '/System/Volumes/VM', '/Volumes/Macintosh HD', '/Library/Preferences', '/Library/Keychains'
])

const SYSTEM_DIRS_LOWER = new Set([...SYSTEM_DIRS].map((dir) => dir.toLowerCase()))

const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d|nbd\d|zd\d|bcache\d|ubd[a-z]|mem$|kmem$|port$|root$|disk\/by-|block\/|[a-z]+\/by-(id|uuid|label|path|partuuid|partlabel)\/)/

export function isBlockDevice(p: string): boolean {
  // `//dev/sda`, `/dev/./sda`, and globs that can only match disks (`/dev/sd?`, `/dev/sd[a-z]`).
  const normal = path.posix.normalize(p.replace(/^\/+/, '/'))
  return BLOCK_DEVICE.test(normal) || BLOCK_DEVICE.test(normal.replace(/\[[^\]]*\]|\?|\*/g, 'a'))
}

/** A path whose loss is a catastrophe: `/`, a system folder, the home folder or its parents. */
export function isCriticalTarget(raw: string, ctx: PathContext, cwd: string): boolean {
  const value = raw.replace(/\/+$/, '') || '/'
  // `/*`, `~/*`: the glob's folder is what goes.
  const folder = /(^|\/)\*$/.test(value) ? value.replace(/\/?\*$/, '') || '/' : value
  if (/[*?[]/.test(folder)) {
    // Any other glob: what it would match now, as the shell expands it (`/u*` is /usr).
    const matches = expandGlob(normalise(folder, ctx, cwd))
    return matches !== null && matches.some((match) => isCriticalAbsolute(match, ctx))
  }
  const absolute = normalise(folder, ctx, cwd)
  return isCriticalAbsolute(absolute, ctx) || isCriticalAbsolute(resolveReal(absolute), ctx)
}

/** `/`, a system folder, the home folder or one of its parents, a Windows drive or system folder. */
function isCriticalAbsolute(absolute: string, ctx: PathContext): boolean {
  const trimmed = absolute.replace(/\/+$/, '') || '/'
  // macOS and Windows ignore case: /library is /Library there.
  if (SYSTEM_DIRS.has(trimmed) || SYSTEM_DIRS_LOWER.has(trimmed.toLowerCase())) return true
  if (trimmed === ctx.home || ctx.home.startsWith(`${trimmed}/`) || trimmed === '/') return true
  // ~/Library holds a macOS user's keychains, mail and every app's data.
  if (trimmed.toLowerCase() === `${ctx.home}/library`.toLowerCase()) return true
  return /^[A-Za-z]:\/?$/.test(trimmed) || /^[A-Za-z]:\/(windows|users|program files( \(x86\))?|programdata)(\/system32)?\/?$/i.test(trimmed)
}

const flagsOf = (argv: ReadonlyArray<string | null>): string[] =>
  argv.slice(1).filter((a): a is string => a !== null && a.startsWith('-') && a !== '-' && a !== '--')

const targetsOf = (argv: ReadonlyArray<string | null>): Array<{ value: string; index: number }> => {
  const out: Array<{ value: string; index: number }> = []
  let afterDashes = false
  argv.forEach((arg, index) => {
    if (index === 0 || arg === null) return
    if (!afterDashes && arg === '--') afterDashes = true
    else if (afterDashes || !arg.startsWith('-')) out.push({ value: arg, index })
  })
  return out
}

const hasShortFlag = (flags: string[], letters: string): boolean =>
  flags.some((f) => !f.startsWith('--') && [...letters].some((l) => f.slice(1).includes(l)))

/** What a catalogue check knows about one argv. */
interface Facts {
  program: string
  argv: ReadonlyArray<string | null>
  flags: string[]
  targets: Array<{ value: string; index: number }>
  ctx: PathContext
  cwd: string
  /** The target is `/`, a system folder, the home or a parent of it. */
  critical: (t: { value: string }) => boolean
}

export function criticalHit(
  program: string,
  argv: ReadonlyArray<string | null>,
  ctx: PathContext,
  cwd: string
): CriticalHit | null {
  const facts: Facts = { program, argv, flags: flagsOf(argv), targets: targetsOf(argv), ctx, cwd, critical: (t) => isCriticalTarget(t.value, ctx, cwd) }
  return treeHit(facts) ?? diskHit(facts)
}

/** Deleting, moving or locking a whole tree: `rm -rf /`, `find ~ -delete`, `chmod -R 000 ~`, `rsync --delete`. */
function treeHit({ program, argv, flags, targets, critical }: Facts): CriticalHit | null {
  switch (program) {
    case 'rm': {
      const recursive = hasShortFlag(flags, 'rR') || flags.includes('--recursive')
      const hit = targets.find(critical)
      if (recursive && hit) return { rule: 'shell.critical.rm-root', message: `Recursively deletes ${hit.value}.`, argIndex: hit.index }
      if (flags.includes('--no-preserve-root')) return { rule: 'shell.critical.rm-root', message: 'Deletes with --no-preserve-root.', argIndex: 0 }
      return null
    }
    case 'mv': {
      const hit = targets.slice(0, -1).find(critical)
      return hit ? { rule: 'shell.critical.move-root', message: `Moves ${hit.value} away.`, argIndex: hit.index } : null
    }
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const recursive = hasShortFlag(flags, 'R') || flags.includes('--recursive')
      const hit = targets.slice(1).find(critical)
      if (recursive && hit) {
        return { rule: 'shell.critical.permissions', message: `Recursively changes ownership or permissions of ${hit.value}.`, argIndex: hit.index }
      }
      return null
    }
    case 'setfacl':
    case 'chattr': {
      // ACL and attribute wipes of a whole tree (`setfacl -R -b ~`, `chattr -R +i /`) lock its owner out.
      const recursive = hasShortFlag(flags, 'R') || flags.includes('--recursive')
      const hit = targets.find(critical)
      if (recursive && hit) {
        return { rule: 'shell.critical.permissions', message: `Recursively changes ACLs or attributes of ${hit.value}.`, argIndex: hit.index }
      }
      return null
    }
    case 'find': {
      const deletes =
        argv.some((a) => a === '-delete') ||
        argv.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a ?? '') && /^(rm|shred|unlink|chmod|chown|mv)$/.test(basenameOf(argv[i + 1] ?? '')))
      const start = targets.find((t) => !t.value.startsWith('-'))
      if (deletes && start && critical(start)) return { rule: 'shell.critical.rm-root', message: `Deletes everything under ${start.value}.`, argIndex: start.index }
      return null
    }
    case 'rsync': {
      // --delete makes the destination match the source: an empty source wipes it.
      const deletes = flags.some((f) => f.startsWith('--delete') || f === '--remove-source-files')
      const destination = targets.at(-1)
      if (deletes && destination && targets.length >= 2 && critical(destination)) {
        return { rule: 'shell.critical.rm-root', message: `rsync --delete empties ${destination.value} to match its source.`, argIndex: destination.index }
      }
      return null
    }
    case 'btrfs': {
      const verbs = argv.slice(1, 3).join(' ')
      const target = targets.slice(2).find(critical)
      if (/^(subvolume|sub|su) (delete|del|d)/.test(verbs) && target) return { rule: 'shell.critical.rm-root', message: `btrfs deletes the subvolume ${target.value}.`, argIndex: target.index }
      if (/^(filesystem|fi) (mkfs)/.test(verbs)) return { rule: 'shell.critical.mkfs', message: 'btrfs creates a file system, erasing the device.', argIndex: 1 }
      return null
    }
  }
  return null
}

/** Destroying a disk, a volume or a file system: `dd of=/dev/sda`, `mkfs`, `wipefs`, `diskutil eraseDisk`, `zpool destroy`. */
function diskHit({ program, argv, targets, ctx, cwd, critical }: Facts): CriticalHit | null {
  switch (program) {
    case 'dd': {
      const of = argv.findIndex((a) => a !== null && a.startsWith('of='))
      if (of > 0 && isBlockDevice(normalise(argv[of]!.slice(3), ctx, cwd))) return { rule: 'shell.critical.raw-device-write', message: `Writes raw bytes to ${argv[of]!.slice(3)}.`, argIndex: of }
      return null
    }
    case 'shred':
    case 'wipefs':
    case 'blkdiscard':
    case 'fdisk':
    case 'sfdisk':
    case 'cfdisk':
    case 'gdisk':
    case 'sgdisk':
    case 'parted':
    case 'badblocks':
    case 'hdparm': {
      const hit = targets.find((t) => isBlockDevice(t.value))
      if (hit) return { rule: 'shell.critical.disk', message: `${program} destroys data on ${hit.value}.`, argIndex: hit.index }
      if (program === 'shred') {
        const home = targets.find(critical)
        if (home) return { rule: 'shell.critical.disk', message: `shred destroys ${home.value}.`, argIndex: home.index }
      }
      return null
    }
    case 'diskutil': {
      const verb = argv[1]
      if (verb && /^(erase|zero|randomize|secureErase|partition|reformat|splitPartition|mergePartitions)/i.test(verb)) {
        return { rule: 'shell.critical.disk', message: `diskutil ${verb} destroys a disk.`, argIndex: 1 }
      }
      const apfsVerb = argv[2]
      if (verb && /^(apfs|cs|ar|appleRAID|coreStorage)$/i.test(verb) && apfsVerb && /^(delete|erase|destroy|deleteContainer|deleteVolume|deleteSnapshot|deleteVolumeGroup|eraseVolume)/i.test(apfsVerb)) {
        return { rule: 'shell.critical.disk', message: `diskutil ${verb} ${apfsVerb} destroys a volume or container.`, argIndex: 2 }
      }
      return null
    }
    case 'cp':
    case 'tee':
    case 'install':
    case 'cat':
    case 'pv': {
      // Writing a file over a disk by its device path is the same as dd of=…
      const candidates = program === 'cp' || program === 'install' ? targets.slice(-1) : program === 'tee' ? targets : []
      const hit = candidates.find((t) => isBlockDevice(normalise(t.value, ctx, cwd)))
      return hit ? { rule: 'shell.critical.raw-device-write', message: `Writes over ${hit.value}, destroying what is on it.`, argIndex: hit.index } : null
    }
    case 'nvme': {
      const verb = argv[1]
      if (verb && /^(format|sanitize|delete-ns|detach-ns)$/.test(verb)) return { rule: 'shell.critical.disk', message: `nvme ${verb} erases a drive.`, argIndex: 1 }
      return null
    }
    case 'cryptsetup': {
      const verb = argv.slice(1).find((a) => a !== null && !a.startsWith('-'))
      if (verb && /^(luksErase|erase|luksFormat|luksKillSlot|reencrypt)$/i.test(verb)) {
        return { rule: 'shell.critical.disk', message: `cryptsetup ${verb} destroys the keys or data of an encrypted volume.`, argIndex: argv.indexOf(verb) }
      }
      return null
    }
    case 'zpool':
    case 'zfs': {
      const verb = argv[1]
      if (verb && /^(destroy|labelclear)$/.test(verb)) return { rule: 'shell.critical.disk', message: `${program} ${verb} destroys a pool or dataset.`, argIndex: 1 }
      return null
    }
    case 'lvremove':
    case 'vgremove':
    case 'pvremove':
    case 'lvreduce':
      return { rule: 'shell.critical.disk', message: `${program} removes a volume and the data on it.`, argIndex: 0 }
    case 'mdadm': {
      if (argv.some((a) => a === '--zero-superblock' || a === '--stop' || a === '-S')) return { rule: 'shell.critical.disk', message: 'mdadm wipes or stops a RAID array.', argIndex: 0 }
      return null
    }
  }
  if (/^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|newfs(_.*)?)$/.test(program)) {
    return { rule: 'shell.critical.mkfs', message: `${program} formats a file system, erasing it.`, argIndex: 0 }
  }
  return null
}

export function basenameOf(program: string): string {
  return path.posix.basename(program.replace(/\\/g, '/'))
}
