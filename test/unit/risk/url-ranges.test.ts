import { describe, expect, it } from 'vitest'
import { ADDRESS_RANGES, classifyAddress, UrlGuardian, type AddressRange } from '../../../src/main/risk'

/**
 * A generator over the guardian's own address table (docs/risk.md, "Network"): every range, at its
 * edges and inside, in every spelling a URL parser accepts for it, is never allowed silently —
 * not when judged, not as a redirect hop — even with a Settings rule that allows every site.
 * Random public addresses are not flagged.
 */
const everySite = new UrlGuardian({ domainRules: () => [{ pattern: '*', decision: 'allow' }], lookup: async () => [] })

function rng(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state
  }
}
const random = rng(23)

function v4Parts(n: number): [number, number, number, number] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
}

/** Every spelling of an IPv4 address a URL host may take (WHATWG's IPv4 parser and IPv6 forms). */
export function ipv4Spellings(n: number): string[] {
  const [a, b, c, d] = v4Parts(n)
  const dotted = `${a}.${b}.${c}.${d}`
  const hex = (x: number) => x.toString(16)
  const pct = [...dotted].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).join('')
  return [
    dotted,
    `${dotted}.`,
    String(n >>> 0),
    `0x${hex(n >>> 0)}`,
    `0X${hex(n >>> 0).toUpperCase()}`,
    [a, b, c, d].map((p) => `0${p.toString(8)}`).join('.'),
    [a, b, c, d].map((p) => `0x${hex(p)}`).join('.'),
    `${a}.${b}.${(c << 8) | d}`,
    `${a}.${((b << 16) | (c << 8) | d) >>> 0}`,
    `0x${hex(a)}.${b}.0${c.toString(8)}.${d}`,
    pct,
    `[::ffff:${dotted}]`,
    `[::FFFF:${hex((a << 8) | b)}:${hex((c << 8) | d)}]`,
    `[0:0:0:0:0:ffff:${dotted}]`,
    `[64:ff9b::${dotted}]`,
    `[2002:${hex((a << 8) | b)}:${hex((c << 8) | d)}::1]`
  ]
}

function ipv6Text(value: bigint): string {
  const groups: string[] = []
  for (let i = 7; i >= 0; i--) groups.push(((value >> BigInt(i * 16)) & 0xffffn).toString(16))
  return groups.join(':')
}

/** Full, compressed and upper-case spellings of an IPv6 address. */
function ipv6Spellings(value: bigint): string[] {
  const full = ipv6Text(value)
  const compressed = new URL(`http://[${full}]/`).hostname
  return [`[${full}]`, compressed, compressed.toUpperCase(), `[${full.split(':').map((g) => g.padStart(4, '0')).join(':')}]`]
}

/** First, last and a few random addresses of a range. */
function samples(range: AddressRange): Array<{ spellings: string[]; address: string }> {
  const [network, bitsText] = range.cidr.split('/') as [string, string]
  const bits = Number(bitsText)
  if (range.family === 4) {
    const base = network.split('.').reduce((acc, p) => ((acc << 8) | Number(p)) >>> 0, 0)
    const size = 2 ** (32 - bits)
    const offsets = [0, size - 1, ...Array.from({ length: 4 }, () => random() % size)]
    return offsets.map((o) => {
      const n = (base + o) >>> 0
      return { spellings: ipv4Spellings(n), address: v4Parts(n).join('.') }
    })
  }
  const groups = new URL(`http://[${network}]/`).hostname.replace(/^\[|\]$/g, '')
  const expanded = expand(groups)
  const base = expanded.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n)
  const hostBits = BigInt(128 - bits)
  const size = 1n << hostBits
  const offsets = [0n, size - 1n, ...Array.from({ length: 4 }, () => (BigInt(random()) * BigInt(random()) * BigInt(random())) % size)]
  return offsets.map((o) => ({ spellings: ipv6Spellings(base + o), address: ipv6Text(base + o) }))
}

function expand(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string | undefined]
  const left = head ? head.split(':').map((g) => parseInt(g, 16)) : []
  const right = tail ? tail.split(':').map((g) => parseInt(g, 16)) : []
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right]
}

/** An IPv6 range's samples that are not themselves IPv4 carriers (mapped, NAT64, 6to4): those are judged by their IPv4. */
const host = (spelling: string) => (spelling.startsWith('[') || !spelling.includes(':') ? spelling : `[${spelling}]`)

describe('every private and reserved range, in every spelling', () => {
  let checked = 0
  it.each(ADDRESS_RANGES.map((r) => [r.cidr, r] as const))('%s is never allowed silently', async (_cidr, range) => {
    for (const sample of samples(range)) {
      expect(classifyAddress(sample.address), sample.address).not.toBeNull()
      for (const spelling of sample.spellings) {
        const url = `http://${host(spelling)}:8080/x`
        const judged = everySite.judge(url, null)
        const findings = judged.findings.map((f) => f.rule)
        expect(findings, url).toContain('url.private-address')
        const hop = await everySite.checkHop(url, { first: false })
        expect(hop.ok, url).toBe(false)
        checked++
      }
    }
  })

  it('walked every range', () => {
    expect(checked).toBeGreaterThan(ADDRESS_RANGES.length * 6 * 4)
  })
})

describe('public addresses are not flagged', () => {
  it('2,000 random public IPv4 addresses and 500 global IPv6 addresses', async () => {
    let n4 = 0
    while (n4 < 2000) {
      const n = random()
      const address = v4Parts(n).join('.')
      if (classifyAddress(address) !== null) continue
      n4++
      for (const spelling of [address, String(n), `0x${n.toString(16)}`]) {
        const url = `https://${spelling}/`
        expect(everySite.judge(url, null).findings, url).toEqual([])
        expect((await everySite.checkHop(url, { first: false })).ok, url).toBe(true)
      }
    }
    for (let i = 0; i < 500; i++) {
      // 2000::/3 outside the documentation, 6to4 and Teredo prefixes.
      const value = (0x2400n << 112n) | (BigInt(random()) << 64n) | (BigInt(random()) << 32n) | BigInt(random())
      const url = `https://[${ipv6Text(value)}]/`
      expect(everySite.judge(url, null).findings, url).toEqual([])
    }
  })
})
