import { type KeyboardEvent, type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { ConversationSearchResult } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useConversationsStore, useNoticesStore } from '../../stores'
import { modKeyLabel, XIcon } from '../common'
import { SearchIcon } from './icons'
import { highlightSegments, SEARCH_DEBOUNCE_MS } from './search-text'

const RESULTS_ID = 'conversation-search-results'
const resultId = (index: number) => `conversation-search-result-${index}`

export interface SearchState {
  query: string
  setQuery(query: string): void
  /** Results of `searchedFor`; they stay on screen while a newer query is on its way. */
  results: ConversationSearchResult[]
  searchedFor: string | null
  /** The results for the query as typed now, searched at once (Enter before the debounce ran out). */
  resultsNow(): Promise<ConversationSearchResult[]>
}

/**
 * The sidebar's search: debounced, and searched again when the list changes (a rename, a pin, a
 * finished answer) so the results never describe conversations as they were.
 */
export function useConversationSearch(): SearchState {
  const t = useT()
  const search = useConversationsStore((s) => s.search)
  const list = useConversationsStore((s) => s.list)
  const pushNotice = useNoticesStore((s) => s.push)
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<{ query: string; results: ConversationSearchResult[] } | null>(null)
  const latest = useRef(0)

  const run = useCallback(
    async (text: string): Promise<ConversationSearchResult[]> => {
      const ticket = ++latest.current
      const result = await search(text)
      const results = result.ok ? result.data : []
      if (!result.ok) pushNotice(t.error(result.error))
      if (ticket === latest.current) setFound({ query: text, results })
      return results
    },
    [search, pushNotice, t]
  )

  const trimmed = query.trim()
  useEffect(() => {
    if (!trimmed) {
      latest.current++
      setFound(null)
      return
    }
    const timer = setTimeout(() => void run(trimmed), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [trimmed, list, run])

  return {
    query,
    setQuery,
    results: trimmed && found ? found.results : [],
    searchedFor: trimmed && found ? found.query : null,
    resultsNow: () => (found && found.query === trimmed ? Promise.resolve(found.results) : run(trimmed))
  }
}

export interface SearchBoxProps {
  inputRef: RefObject<HTMLInputElement | null>
  search: SearchState
  activeIndex: number
  setActiveIndex(index: number): void
  onOpen(result: ConversationSearchResult): void
}

/** The box at the top of the sidebar (a combobox: arrows move through the results, Enter opens). */
export function SearchBox({ inputRef, search, activeIndex, setActiveIndex, onOpen }: SearchBoxProps) {
  const t = useT()
  const { query, setQuery, results } = search
  const open = query.trim() !== ''

  const onKeyDown = async (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (results.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActiveIndex((activeIndex + step + results.length) % results.length)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      if (!open) return
      const now = await search.resultsNow()
      const chosen = now[Math.min(activeIndex, now.length - 1)]
      if (chosen) onOpen(chosen)
    } else if (event.key === 'Escape') {
      // The box's Escape, not the window's (which stops a run).
      event.preventDefault()
      event.stopPropagation()
      if (query) setQuery('')
      else event.currentTarget.blur()
    }
  }

  return (
    <div className="sidebar-search" role="search">
      <SearchIcon className="sidebar-search-icon" />
      <input
        ref={inputRef}
        type="text"
        className="sidebar-search-input"
        data-testid="conversation-search"
        role="combobox"
        aria-label={t('search.label')}
        aria-expanded={open}
        aria-controls={RESULTS_ID}
        aria-autocomplete="list"
        aria-activedescendant={open && results.length > 0 ? resultId(activeIndex) : undefined}
        placeholder={t('search.placeholder')}
        value={query}
        maxLength={200}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          setQuery(event.target.value)
          setActiveIndex(0)
        }}
        onKeyDown={(event) => void onKeyDown(event)}
      />
      {query ? (
        <button
          type="button"
          className="icon-button sidebar-search-clear"
          data-testid="conversation-search-clear"
          title={t('search.clear')}
          aria-label={t('search.clear')}
          onClick={() => {
            setQuery('')
            inputRef.current?.focus()
          }}
        >
          <XIcon size={13} />
        </button>
      ) : (
        <kbd className="sidebar-search-kbd" aria-hidden="true">
          {modKeyLabel}&thinsp;K
        </kbd>
      )}
    </div>
  )
}

/** What the search found, in place of the list while there is a query. */
export function SearchResults({
  search,
  activeIndex,
  setActiveIndex,
  onOpen
}: Omit<SearchBoxProps, 'inputRef'>) {
  const t = useT()
  const { results, searchedFor } = search
  return (
    <>
      <div className="sidebar-section-label" id={`${RESULTS_ID}-label`}>
        {t('search.results')}
      </div>
      {searchedFor !== null && results.length === 0 && (
        <p className="sidebar-empty" data-testid="search-empty" role="status">
          {t('search.empty', { query: searchedFor })}
        </p>
      )}
      <div
        className="search-results"
        id={RESULTS_ID}
        role="listbox"
        aria-labelledby={`${RESULTS_ID}-label`}
        data-testid="search-results"
        aria-busy={searchedFor === null}
      >
        {results.map((result, index) => {
          const title = result.title.trim() || t('conversation.untitled')
          return (
            <div
              key={result.conversationId}
              id={resultId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={`search-result${index === activeIndex ? ' active' : ''}`}
              data-testid="search-result"
              data-conversation-id={result.conversationId}
              data-field={result.field}
              // Focus stays in the box (the combobox pattern); the click still opens.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => index !== activeIndex && setActiveIndex(index)}
              onClick={() => onOpen(result)}
            >
              <span className="search-result-title">
                {result.field === 'title' ? <Highlighted text={result.snippet} highlights={result.highlights} /> : title}
              </span>
              {result.field === 'message' && (
                <span className="search-result-snippet" data-testid="search-snippet">
                  <Highlighted text={result.snippet} highlights={result.highlights} />
                </span>
              )}
            </div>
          )
        })}
      </div>
    </>
  )
}

function Highlighted({ text, highlights }: Pick<ConversationSearchResult, 'highlights'> & { text: string }) {
  return (
    <>
      {highlightSegments(text, highlights).map((segment, index) =>
        segment.match ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>
      )}
    </>
  )
}
