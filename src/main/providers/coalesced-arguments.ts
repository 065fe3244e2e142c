/**
 * Tool arguments arrive in tiny pieces (a few characters per server-sent event); the AI SDK turns
 * each into a stream part that passes half a dozen web streams, and keeps every part until the step
 * ends — megabytes of arguments cost tens of seconds and grow faster than their size (issue 28,
 * item 5). This fetch joins the argument pieces of one call that arrive in one network read into a
 * single event before the SDK parses them: the same call, the same text, a few hundred times fewer
 * parts. Nothing waits for more data: what a read brought is passed on at the end of that read.
 * Only pure argument pieces are joined (OpenAI's `tool_calls[].function.arguments`, Anthropic's
 * `input_json_delta`); every other event passes through untouched.
 */

type Fetch = typeof globalThis.fetch

export function coalescingFetch(fetch: Fetch): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    const type = response.headers.get('content-type') ?? ''
    if (!response.body || !type.includes('text/event-stream')) return response
    return new Response(response.body.pipeThrough(coalesceArgumentPieces()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}

/** One argument piece, as found in an event: what identifies its call, and how to write a joined one. */
interface Piece {
  key: string
  text: string
  /** The event with `joined` in place of this piece's text. */
  rewrite(joined: string): string
}

export function coalesceArgumentPieces(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let rest = ''
  return new TransformStream({
    transform(chunk, controller) {
      const text = rest + decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n')
      const end = text.lastIndexOf('\n\n')
      if (end === -1) {
        rest = text
        return
      }
      rest = text.slice(end + 2)
      controller.enqueue(encoder.encode(joinEvents(text.slice(0, end).split('\n\n'))))
    },
    flush(controller) {
      const text = rest + decoder.decode()
      if (text) controller.enqueue(encoder.encode(text))
    }
  })
}

/** Events (without their blank-line ends) joined where they are neighbouring pieces of one call's arguments. */
export function joinEvents(events: readonly string[]): string {
  const out: string[] = []
  let first: Piece | null = null
  let texts: string[] = []
  const close = (): void => {
    if (first) out.push(texts.length === 1 ? first.rewrite(texts[0]!) : first.rewrite(texts.join('')))
    first = null
    texts = []
  }
  for (const event of events) {
    const piece = argumentPiece(event)
    if (piece && first !== null && (first as Piece).key === piece.key) {
      texts.push(piece.text)
      continue
    }
    close()
    if (piece) {
      first = piece
      texts = [piece.text]
    } else {
      out.push(`${event}\n\n`)
    }
  }
  close()
  return out.join('')
}

function argumentPiece(event: string): Piece | null {
  // Cheap test first: most events are text or control, and parsing every one would cost as much as the SDK does.
  if (!event.includes('"arguments"') && !event.includes('input_json_delta')) return null
  const lines = event.split('\n')
  const dataAt = lines.findIndex((line) => line.startsWith('data:'))
  if (dataAt === -1 || lines.slice(dataAt + 1).some((line) => line.startsWith('data:'))) return null
  let data: unknown
  try {
    data = JSON.parse(lines[dataAt]!.slice(5))
  } catch {
    return null
  }
  const rewrite = (replace: (joined: string) => unknown) => (joined: string) => {
    const next = [...lines]
    next[dataAt] = `data: ${JSON.stringify(replace(joined))}`
    return `${next.join('\n')}\n\n`
  }
  const openAI = openAIPiece(data)
  if (openAI) return { key: `openai:${openAI.index}`, text: openAI.text, rewrite: rewrite(openAI.with) }
  const anthropic = anthropicPiece(data)
  if (anthropic) return { key: `anthropic:${anthropic.index}`, text: anthropic.text, rewrite: rewrite(anthropic.with) }
  return null
}

type Found = { index: number; text: string; with(joined: string): unknown } | null

/** `{choices:[{index, delta:{tool_calls:[{index, function:{arguments}}]}, finish_reason:null}]}` and nothing else in the delta. */
function openAIPiece(data: unknown): Found {
  const body = data as { choices?: unknown; usage?: unknown }
  if (!Array.isArray(body?.choices) || body.choices.length !== 1 || body.usage != null) return null
  const choice = body.choices[0] as { delta?: Record<string, unknown>; finish_reason?: unknown }
  if (choice.finish_reason != null || !choice.delta) return null
  const { tool_calls: calls, ...others } = choice.delta
  if (Object.values(others).some((value) => value != null && value !== '')) return null
  if (!Array.isArray(calls) || calls.length !== 1) return null
  const call = calls[0] as { index?: unknown; id?: unknown; type?: unknown; function?: Record<string, unknown> }
  if (typeof call.index !== 'number' || call.id != null || call.type != null || !call.function) return null
  const { arguments: text, ...rest } = call.function
  if (typeof text !== 'string' || Object.values(rest).some((value) => value != null)) return null
  return {
    index: call.index,
    text,
    with: (joined) => ({ ...body, choices: [{ ...choice, delta: { ...choice.delta, tool_calls: [{ ...call, function: { ...call.function, arguments: joined } }] } }] })
  }
}

/** `{type:'content_block_delta', index, delta:{type:'input_json_delta', partial_json}}`. */
function anthropicPiece(data: unknown): Found {
  const body = data as { type?: unknown; index?: unknown; delta?: { type?: unknown; partial_json?: unknown } }
  if (body?.type !== 'content_block_delta' || typeof body.index !== 'number') return null
  if (body.delta?.type !== 'input_json_delta' || typeof body.delta.partial_json !== 'string') return null
  return { index: body.index, text: body.delta.partial_json, with: (joined) => ({ ...body, delta: { ...body.delta, partial_json: joined } }) }
}
