import { type DragEvent as ReactDragEvent, useEffect, useMemo, useRef, useState } from 'react'
import { useAttachmentDraftStore } from './store'

function carriesFiles(transfer: DataTransfer | null): boolean {
  return transfer !== null && Array.from(transfer.types).includes('Files')
}

/**
 * Dropping files on the chat attaches them. `dragging` is true while files are held over it (the
 * drop hint shows). A file dropped anywhere else in the window is ignored: the browser would
 * otherwise open it in place of the app.
 */
export function useAttachmentDrop() {
  const add = useAttachmentDraftStore((s) => s.add)
  const [dragging, setDragging] = useState(false)
  const depth = useRef(0) // dragenter/dragleave fire for every child crossed

  useEffect(() => {
    const ignore = (event: DragEvent) => {
      if (carriesFiles(event.dataTransfer)) event.preventDefault()
    }
    window.addEventListener('dragover', ignore)
    window.addEventListener('drop', ignore)
    return () => {
      window.removeEventListener('dragover', ignore)
      window.removeEventListener('drop', ignore)
    }
  }, [])

  const handlers = useMemo(
    () => ({
      onDragEnter(event: ReactDragEvent<HTMLElement>) {
        if (!carriesFiles(event.dataTransfer)) return
        event.preventDefault()
        depth.current++
        setDragging(true)
      },
      onDragOver(event: ReactDragEvent<HTMLElement>) {
        if (!carriesFiles(event.dataTransfer)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'copy'
      },
      onDragLeave(event: ReactDragEvent<HTMLElement>) {
        if (!carriesFiles(event.dataTransfer)) return
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setDragging(false)
      },
      onDrop(event: ReactDragEvent<HTMLElement>) {
        if (!carriesFiles(event.dataTransfer)) return
        event.preventDefault()
        depth.current = 0
        setDragging(false)
        const files = Array.from(event.dataTransfer.files)
        if (files.length > 0) void add(files)
      }
    }),
    [add]
  )

  return { dragging, handlers }
}
