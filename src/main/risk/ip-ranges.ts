import { BlockList, isIP } from 'node:net'

/**
 * Address ranges a fetch must not reach without the person knowing (docs/risk.md, "Network"):
 * a URL that names or resolves to one of them could read the user's router, a cloud metadata
 * service or a server on this machine (SSRF). Everything not in the table is public.
 */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'cgnat' | 'unique-local' | 'unspecified' | 'multicast' | 'reserved'

export interface AddressRange {
  cidr: string
  kind: AddressClass
  family: 4 | 6
}

/** Every range, as the generator test walks it (test/unit/risk/url-ranges.test.ts). */
export const ADDRESS_RANGES: readonly AddressRange[] = [
  { cidr: '0.0.0.0/8', kind: 'unspecified', family: 4 },
  { cidr: '10.0.0.0/8', kind: 'private', family: 4 },
  { cidr: '100.64.0.0/10', kind: 'cgnat', family: 4 },
  { cidr: '127.0.0.0/8', kind: 'loopback', family: 4 },
  { cidr: '169.254.0.0/16', kind: 'link-local', family: 4 },
  { cidr: '172.16.0.0/12', kind: 'private', family: 4 },
  { cidr: '192.0.0.0/24', kind: 'reserved', family: 4 },
  { cidr: '192.0.2.0/24', kind: 'reserved', family: 4 },
  { cidr: '192.88.99.0/24', kind: 'reserved', family: 4 },
  { cidr: '192.168.0.0/16', kind: 'private', family: 4 },
  { cidr: '198.18.0.0/15', kind: 'reserved', family: 4 },
  { cidr: '198.51.100.0/24', kind: 'reserved', family: 4 },
  { cidr: '203.0.113.0/24', kind: 'reserved', family: 4 },
  { cidr: '224.0.0.0/4', kind: 'multicast', family: 4 },
  { cidr: '240.0.0.0/4', kind: 'reserved', family: 4 },
  { cidr: '::/128', kind: 'unspecified', family: 6 },
  { cidr: '::1/128', kind: 'loopback', family: 6 },
  // IPv4-compatible (deprecated) and the discard prefix: nothing public lives there.
  { cidr: '::/96', kind: 'reserved', family: 6 },
  { cidr: '100::/64', kind: 'reserved', family: 6 },
  { cidr: '2001::/23', kind: 'reserved', family: 6 },
  { cidr: '2001:db8::/32', kind: 'reserved', family: 6 },
  { cidr: 'fc00::/7', kind: 'unique-local', family: 6 },
  { cidr: 'fe80::/10', kind: 'link-local', family: 6 },
  { cidr: 'fec0::/10', kind: 'link-local', family: 6 },
  { cidr: 'ff00::/8', kind: 'multicast', family: 6 }
]

const lists = new Map<AddressClass, BlockList>()
for (const range of ADDRESS_RANGES) {
  const [network, bits] = range.cidr.split('/') as [string, string]
  let list = lists.get(range.kind)
  if (!list) lists.set(range.kind, (list = new BlockList()))
  list.addSubnet(network, Number(bits), range.family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * The IPv4 address an IPv6 address carries, where it carries one a network will route to: mapped
 * (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/48`).
 */
export function embeddedIPv4(address: string): string | null {
  if (isIP(address) !== 6) return null
  const groups = expandIPv6(address)
  if (!groups) return null
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!)
  return null
}

/** The class of an IP address (either family, brackets allowed), or null when it is public. Not an IP: null. */
export function classifyAddress(raw: string): AddressClass | null {
  const address = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(address)
  if (family === 0) return null
  const inner = family === 6 ? embeddedIPv4(address) : null
  if (inner) return classifyAddress(inner) ?? null
  for (const [kind, list] of lists) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return kind
  }
  return null
}

/** Eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or null. */
function expandIPv6(address: string): number[] | null {
  let text = address.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = part(head)
  const right = part(tail)
  const fill = tail === undefined ? 0 : 8 - left.length - right.length
  const groups = [...left, ...new Array<number>(Math.max(0, fill)).fill(0), ...right]
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}
