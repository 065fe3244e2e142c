/**
 * Server-sent events from a response body, one `data` payload at a time (the WHATWG event-stream
 * format: lines, `data:` fields joined by newlines, a blank line ends an event; comments and other
 * fields are skipped, but an `error:` line goes to `onError`). A plain loop over the bytes instead of a TransformStream chain: each web
 * stream costs more per chunk than parsing it (docs/benchmarks.md, "Agent loop").
 */
export async function readSseData(body: ReadableStream<Uint8Array>, onError: (value: string) => void, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let rest = ''
  let data: string[] = []
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onData(data.length === 1 ? data[0]! : data.join('\n'))
      data = []
    } else if (text.startsWith('data:')) {
      data.push(text.charCodeAt(5) === 32 ? text.slice(6) : text.slice(5))
    } else if (text.startsWith('error:')) {
      // Not an event-stream field, but what llama.cpp's server writes when a streamed request fails.
      onError(text.charCodeAt(6) === 32 ? text.slice(7) : text.slice(6))
    }
  }
  try {
    for (;;) {
      const { done, value } = await reader.read()
      const text = done ? rest + decoder.decode() : rest + decoder.decode(value, { stream: true })
      let start = 0
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        line(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end))
        start = end + 1
      }
      rest = text.slice(start)
      if (done) break
    }
    // A stream that ends without its last blank line still delivers its last event.
    if (rest !== '') line(rest)
    line('')
  } finally {
    // Stopped early (a malformed event, an abort): release the connection.
    reader.cancel().catch(() => {})
  }
}
