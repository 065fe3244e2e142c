/**
 * Which steps of a conversation stand undone (the bridge's `undo.undone`, read from the stored
 * undo audit): shared by every step card of the conversation, read again after an undo or redo.
 */
import { useEffect, useState } from 'react'
import { getDeskclawApi } from '../../bridge'

export interface UndoneStep {
  runId: string
  callId: string
  undoId: string
}

const cache = new Map<string, Promise<UndoneStep[]>>()
const listeners = new Set<() => void>()

function read(conversationId: string): Promise<UndoneStep[]> {
  let pending = cache.get(conversationId)
  if (!pending) {
    pending = getDeskclawApi()
      .invoke('undo.undone', { conversationId })
      .then((result) => (result.ok ? result.data : []))
    cache.set(conversationId, pending)
  }
  return pending
}

/** After an undo or a redo: every card of the conversation reads the state again. */
export function undoneStepsChanged(conversationId: string): void {
  cache.delete(conversationId)
  for (const listener of listeners) listener()
}

/** The undo that stands for this call, or null when the call is not undone. */
export function useUndoneStep(conversationId: string, callId: string): UndoneStep | null {
  const [step, setStep] = useState<UndoneStep | null>(null)
  useEffect(() => {
    let live = true
    const refresh = () => void read(conversationId).then((steps) => live && setStep(steps.find((s) => s.callId === callId) ?? null))
    refresh()
    listeners.add(refresh)
    return () => {
      live = false
      listeners.delete(refresh)
    }
  }, [conversationId, callId])
  return step
}
