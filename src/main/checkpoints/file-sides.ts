import type { FileSide } from '../../shared'
import { blobContent } from './changes'
import { runGit, splitNul, type GitTarget } from './git-plumbing'

/** The diff view shows text up to this size; larger files by size only. */
export const MAX_TEXT_BYTES = 512 * 1024
/** Images up to this size are previewed. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024

const IMAGE_MAGIC: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]]
]

/** One file at one checkpoint, as the diff view shows it (docs/checkpoints.md, "A diff per step"). */
export async function fileSide(target: GitTarget, checkpoint: string, path: string): Promise<FileSide> {
  const listed = splitNul((await runGit(target, ['ls-tree', '-z', '--long', checkpoint, '--', path])).stdout)
  const entry = listed.find((line) => line.slice(line.indexOf('\t') + 1) === path)
  if (!entry) return { exists: false, bytes: 0 }
  const [mode, type, id, size] = entry.slice(0, entry.indexOf('\t')).split(/\s+/)
  if (type !== 'blob' || !id) return { exists: true, bytes: 0 }
  const bytes = Number(size) || 0
  // A symbolic link's content is its target: shown as text.
  const content = await blobContent(target, id, Math.max(MAX_TEXT_BYTES, MAX_IMAGE_BYTES))
  if (!content) return { exists: true, bytes }
  const image = mode !== '120000' ? imageType(content) : undefined
  if (image) return content.length <= MAX_IMAGE_BYTES ? { exists: true, bytes, image: { mediaType: image, base64: content.toString('base64') } } : { exists: true, bytes }
  if (content.length > MAX_TEXT_BYTES || !isText(content)) return { exists: true, bytes }
  return { exists: true, bytes, text: content.toString('utf8') }
}

function imageType(content: Buffer): string | undefined {
  for (const [type, magic] of IMAGE_MAGIC) {
    if (magic.every((byte, index) => content[index] === byte)) {
      if (type === 'image/webp' && content.subarray(8, 12).toString('latin1') !== 'WEBP') continue
      return type
    }
  }
  return undefined
}

/** Text as git judges it (no NUL in the first 8,000 bytes), and valid UTF-8. */
function isText(content: Buffer): boolean {
  if (content.subarray(0, 8000).includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content)
    return true
  } catch {
    return false
  }
}
