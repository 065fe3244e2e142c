import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useT } from '../../i18n'
import type { TimelineItem } from '../../stores'
import { alwaysShown, foldTimeline, type ListRow, listRows, ToolCallCard, ToolGroupRow, ToolRow } from '../timeline'

/** Closer than this to the bottom counts as "at the bottom" (the list follows what streams in). */
const STICK_PX = 40

/** First guesses of a row's height (px, gap included) before it is measured. */
function estimateRow(row: ListRow | undefined): number {
  if (!row) return 60
  switch (row.kind) {
    case 'group':
      return 46
    case 'call':
      return row.card ? 180 : row.last ? 48 : 38
    case 'item':
      if (row.item.kind === 'tool') return 200
      if (row.item.kind === 'run_end') return 50
      if (row.item.kind === 'compaction') return 32
      return row.item.message.role === 'user' ? 56 : 90
  }
}

/** What a row shows; its identity is what `sameRow` compares, so a row re-renders only when it changed. */
function rowSubject(row: ListRow): unknown {
  switch (row.kind) {
    case 'item':
      return itemSubject(row.item)
    case 'call':
      return row.call
    case 'group':
      return row.group
  }
}

function itemSubject(item: TimelineItem): unknown {
  switch (item.kind) {
    case 'message':
      return item.message
    case 'tool':
      return item.call
    case 'run_end':
      return item.run
    case 'compaction':
      return item.compaction
  }
}

function sameRow(a: RowProps, b: RowProps): boolean {
  if (a.renderItem !== b.renderItem || a.onToggleGroup !== b.onToggleGroup || a.onToggleCall !== b.onToggleCall) return false
  const x = a.row
  const y = b.row
  if (x.kind !== y.kind) return false
  if (x.kind === 'group' && y.kind === 'group') {
    // A new group object on every update: equal when it holds the very same calls.
    return (
      x.expanded === y.expanded &&
      x.group.calls.length === y.group.calls.length &&
      x.group.calls.every((call, index) => call === y.group.calls[index])
    )
  }
  if (x.kind === 'call' && y.kind === 'call') return x.call === y.call && x.card === y.card && x.last === y.last
  return rowSubject(x) === rowSubject(y)
}

interface RowProps {
  row: ListRow
  renderItem(item: TimelineItem): ReactNode
  onToggleGroup(key: string): void
  onToggleCall(callId: string): void
}

const Row = memo(function Row({ row, renderItem, onToggleGroup, onToggleCall }: RowProps) {
  switch (row.kind) {
    case 'item':
      return renderItem(row.item)
    case 'group':
      return (
        <div className="timeline-indent">
          <ToolGroupRow group={row.group} expanded={row.expanded} onToggle={onToggleGroup} />
        </div>
      )
    case 'call':
      return (
        <div className="timeline-indent tool-group-member">
          {row.card ? (
            // Calls that are always shown keep their own header toggle; an opened row folds back to its line.
            <ToolCallCard call={row.call} onCollapse={alwaysShown(row.call) ? undefined : () => onToggleCall(row.call.id)} />
          ) : (
            <ToolRow call={row.call} onOpen={onToggleCall} />
          )}
        </div>
      )
  }
}, sameRow)

function toggled(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set)
  if (!next.delete(key)) next.add(key)
  return next
}

export interface MessageListProps {
  /** The open conversation: a new one starts at its bottom, following what streams in. */
  conversationId: string | null
  timeline: readonly TimelineItem[]
  /** Messages, run ends and unfolded tool cards, as the chat draws them (a stable function). */
  renderItem(item: TimelineItem): ReactNode
  /** Shown above the list (loading, errors, the empty state). */
  before?: ReactNode
  /** Shown below the list (the thinking dots). */
  after?: ReactNode
  /**
   * The question sent last, shown or not: when it changes the list goes to the bottom and follows
   * again, and paging through message versions does not change it. Default: the last question shown.
   */
  latestPrompt?: string | null
}

/**
 * The conversation as a virtualised list (@tanstack/react-virtual): only the rows on screen (and a
 * few around) are in the DOM, each measured as it renders. Long tool runs are folded into one row
 * (features/timeline/grouping.ts). It sticks to the bottom while things stream in, unless the
 * person scrolled up; then "Jump to latest" brings them back.
 */
export function MessageList({ conversationId, timeline, renderItem, before, after, latestPrompt }: MessageListProps) {
  const t = useT()
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const [showJump, setShowJump] = useState(false)
  const [expandedGroups, setExpandedGroups] = useState<ReadonlySet<string>>(() => new Set())
  const [expandedCalls, setExpandedCalls] = useState<ReadonlySet<string>>(() => new Set())
  const [scrollMargin, setScrollMargin] = useState(0)

  const folded = useMemo(() => foldTimeline(timeline), [timeline])
  const rows = useMemo(() => listRows(folded, expandedGroups, expandedCalls), [folded, expandedGroups, expandedCalls])

  // Opening or closing a row keeps that row where it is (the list stops following the bottom).
  const onToggleGroup = useCallback((key: string) => {
    stick.current = false
    setExpandedGroups((set) => toggled(set, key))
  }, [])
  const onToggleCall = useCallback((callId: string) => {
    stick.current = false
    setExpandedCalls((set) => toggled(set, callId))
  }, [])

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 8,
    scrollMargin
  })

  /** Following: stay at the bottom. Not following: say whether there is more below. */
  const toBottom = useCallback(() => {
    const el = scroller.current
    if (!el) return
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight
    if (stick.current) {
      if (distance > 1) el.scrollTop = el.scrollHeight
    } else {
      setShowJump(distance >= STICK_PX)
    }
  }, [])

  // A new conversation, or a message the person just sent: show its bottom and follow it again.
  const lastShownPrompt = useMemo(
    () => timeline.findLast((item) => item.kind === 'message' && item.message.role === 'user')?.key ?? null,
    [timeline]
  )
  const lastPrompt = latestPrompt === undefined ? lastShownPrompt : latestPrompt
  useLayoutEffect(() => {
    stick.current = true
    setShowJump(false)
  }, [conversationId, lastPrompt])

  // Where the list starts inside the scroller (below the column's padding and anything above it).
  useLayoutEffect(() => {
    const offset = list.current?.offsetTop ?? 0
    if (offset !== scrollMargin) setScrollMargin(offset)
  })

  const totalSize = virtualizer.getTotalSize()
  useLayoutEffect(toBottom, [rows, totalSize, after, conversationId, toBottom])

  // Rows measured after they render (images, code blocks, a card opening) change the height: follow it.
  useEffect(() => {
    const el = content.current
    if (!el) return
    const observer = new ResizeObserver(toBottom)
    observer.observe(el)
    return () => observer.disconnect()
  }, [toBottom])

  const items = virtualizer.getVirtualItems()
  const margin = virtualizer.options.scrollMargin

  return (
    <>
      <div
        className="chat-scroll message-list"
        data-testid="message-list"
        ref={scroller}
        onScroll={(event) => {
          const el = event.currentTarget
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
          stick.current = atBottom
          setShowJump(!atBottom)
        }}
      >
        <div className="chat-column" ref={content}>
          {before}
          <div className={`virtual-list${rows.length > 0 ? ' has-rows' : ''}`} ref={list} style={{ height: totalSize }}>
            {items.map((item) => {
              const row = rows[item.index]!
              // A group's rows sit close together; the last one keeps the list's gap.
              const tight = (row.kind === 'group' && rows[item.index + 1]?.kind === 'call') || (row.kind === 'call' && !row.last)
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={`virtual-row row-${row.kind}${tight ? ' tight' : ''}`}
                  style={{ transform: `translateY(${item.start - margin}px)` }}
                >
                  <Row row={row} renderItem={renderItem} onToggleGroup={onToggleGroup} onToggleCall={onToggleCall} />
                </div>
              )
            })}
          </div>
          {after}
        </div>
      </div>
      {showJump && (
        <button
          type="button"
          className="jump-latest"
          data-testid="jump-latest"
          onClick={() => {
            stick.current = true
            setShowJump(false)
            const el = scroller.current
            if (el) el.scrollTop = el.scrollHeight
          }}
        >
          {t('chat.newMessages')} ↓
        </button>
      )}
    </>
  )
}
