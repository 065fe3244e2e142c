/** Prefixed ids say what they name in logs and URLs: conv_…, run_…, call_…, appr_…, msg_…. */
export type IdKind = 'conv' | 'run' | 'call' | 'appr' | 'msg' | 'att' | 'ser' | 'undo' | 'mem' | 'note' | 'task'

export function newId(kind: IdKind): string {
  // globalThis.crypto exists in Node 20 and in every renderer, so shared code needs no node: import.
  return `${kind}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`
}
