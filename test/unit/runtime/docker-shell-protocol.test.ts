/**
 * The persistent shell's line protocol (docs/runtimes.md, "The persistent shell"), without an
 * engine: request lines survive any value through a real /bin/sh, and the frame reader finds a
 * command's output and status however the stream is cut into pieces.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { FrameReader, runRequestLine, shellWord } from '../../../src/main/runtime/docker-shell-protocol'

const NONCE = '00112233445566778899aabbccddeeff'
const start = `\x1fdeskclaw:${NONCE}:start\n`
const end = (status: number): string => `\x1fdeskclaw:${NONCE}:end:${status}\n`

/** Feeds `stream` to a reader in pieces of `size` characters; returns the output pieces and the reader. */
function read(stream: string, size: number): { output: string[]; reader: FrameReader } {
  const output: string[] = []
  const reader = new FrameReader(NONCE, (text) => output.push(text))
  for (let at = 0; at < stream.length; at += size) reader.push(stream.slice(at, at + size))
  return { output, reader }
}

describe('FrameReader', () => {
  const awkward = [
    'plain\n',
    'no newline at the end',
    '',
    // Frame-like text with other nonces, a lone frame byte, the start frame again.
    `\x1fdeskclaw:ffffffffffffffffffffffffffffffff:end:0\n\x1f\x1fdeskclaw:${NONCE}:en`,
    `${start}twice`,
    'ünïcødé 中文 🙂\n'.repeat(50)
  ]

  it.each(awkward.map((output) => [JSON.stringify(output).slice(0, 40), output]))(
    'gives back exactly the output between the frames, whatever the piece size: %s',
    (_name, output) => {
      for (const size of [1, 2, 3, 7, 64, 100_000]) {
        const { output: pieces, reader } = read(`left over by an earlier command${start}${output}${end(42)}after the end`, size)
        expect(pieces.join('')).toBe(output)
        expect(reader.state).toBe('ended')
        expect(reader.status).toBe(42)
      }
    }
  )

  it('passes output on as it arrives, holding back only what could begin the end frame', () => {
    const output: string[] = []
    const reader = new FrameReader(NONCE, (text) => output.push(text))
    reader.push(`${start}started\n`)
    expect(output.join('')).toBe('started\n')
    reader.push('half a frame: \x1fdeskcl')
    expect(output.join('')).toBe('started\nhalf a frame: ')
    reader.push('aw? no\n')
    expect(output.join('')).toBe('started\nhalf a frame: \x1fdeskclaw? no\n')
    expect(reader.state).toBe('output')
  })

  it('flush gives back the held-back tail when the stream ends without an end frame', () => {
    const { output, reader } = read(`${start}partial\x1fdesk`, 5)
    reader.flush()
    expect(output.join('')).toBe('partial\x1fdesk')
    expect(reader.status).toBeNull()
  })
})

describe('request lines', () => {
  const values = ["it's", 'two\nlines', '\n', "'", '"$HOME" `id` $(id) \\ * ?', '\r\t\x1f', 'ünï 中文', '-n', '']

  it('every value reaches the command unchanged through a real /bin/sh', () => {
    const line = runRequestLine({ nonce: NONCE, token: 't', cwd: '/', env: [], argv: values })
    expect(line.split('\n')).toHaveLength(2)
    const script = `nl='\n'\nrun() { shift 4; for a in "$@"; do printf '%s\\0' "$a"; done; }\nIFS= read -r line\neval "$line"`
    const printed = execFileSync('/bin/sh', ['-c', script], { input: line }).toString('utf8')
    expect(printed.split('\0').slice(0, -1)).toEqual(values)
  })

  it('an argv[0] holding "=" is not taken by env for a variable', () => {
    expect(runRequestLine({ nonce: NONCE, token: 't', cwd: '/', env: ['A=1'], argv: ['x=y', 'arg'] })).toContain(`'1' 'A=1' '/bin/sh' '-c' 'exec "$@"' 'sh' 'x=y' 'arg'`)
  })

  it('a variable name export does not take goes through env in front of the argv', () => {
    expect(runRequestLine({ nonce: NONCE, token: 't', cwd: '/', env: ['A=1', 'odd-name=2', 'B=x=y'], argv: ['cmd'] })).toContain(
      `'2' 'A=1' 'B=x=y' 'env' 'odd-name=2' 'cmd'`
    )
  })

  it('refuses a NUL character', () => {
    expect(() => shellWord('a\0b')).toThrow(/NUL/)
  })
})
