import { createHash } from 'node:crypto'
import type { ApprovalPreview } from '../../shared'
import { identitiesHash, type TargetIdentity } from './target-identity'

/**
 * The hash an approval is bound to (docs/risk.md, "Approvals"): tool, arguments,
 * folder and the preview exactly as shown (which says where a command runs), and the file-system
 * objects the judgement named (canonical path, kind, device and inode of each). A call that differs
 * in any of them — or whose files were swapped while the question was open — is a different
 * question and needs its own answer.
 */
export function bindingHash(input: { tool: string; args: unknown; workspace: string; preview: ApprovalPreview; targets?: readonly TargetIdentity[] }): string {
  const objects = input.targets && input.targets.length > 0 ? identitiesHash(input.targets) : undefined
  return createHash('sha256')
    .update(stableJson({ tool: input.tool, args: input.args, workspace: input.workspace, preview: input.preview, objects }))
    .digest('hex')
}

/** JSON with sorted keys, so key order never changes a hash or defeats duplicate detection. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
