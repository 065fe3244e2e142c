import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { errorMessage, type RiskFinding, type RiskSpan, type Verdict } from '../../shared'
import { classifyAddress, type AddressClass } from './ip-ranges'
import type { LoadedRule } from './rules'

/**
 * The URL guardian (docs/risk.md, "Network"): judges a `url` subject — scheme, the host's domain
 * rules, and whether it names or resolves to a private, loopback or otherwise non-public address
 * (SSRF) — and checks each hop of a fetch again at run time, with the address it will connect to.
 */

/** A domain rule from Settings: `example.com` (that host), `*.example.com` (its subdomains), an IP, or `*`. */
export interface DomainRule {
  pattern: string
  decision: Verdict
}

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

export type LookupAll = (host: string) => Promise<ResolvedAddress[]>

/** What a hop may connect to, or why it may not (a message code for the tool's own table, with params). */
export type HopCheck =
  | { ok: true; url: URL; host: string; address: ResolvedAddress; addresses: ResolvedAddress[] }
  | { ok: false; code: 'scheme' | 'invalid' | 'denied' | 'private' | 'rebound' | 'unresolved'; message: string; params: Record<string, string> }

export interface UrlGuardianOptions {
  /** All addresses of a name (default: dns.lookup with all: true, as the OS resolves it). */
  lookup?: LookupAll
  /** The domain rules in Settings, read at each judgement. */
  domainRules?: () => readonly DomainRule[]
}

/** Names that never leave this machine or its network, whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/

/** How long a resolution made for a judgement is remembered (the approval timeout is 5 minutes). */
const MEMO_MS = 10 * 60_000
const MEMO_MAX = 500

const CLASS_TEXT: Record<AddressClass, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT address',
  'unique-local': 'a unique-local IPv6 address',
  unspecified: 'the unspecified address (this machine)',
  multicast: 'a multicast address',
  reserved: 'a reserved address'
}

export function describeAddressClass(kind: AddressClass): string {
  return CLASS_TEXT[kind]
}

/** The URL as the WHATWG parser reads it (every IPv4 spelling becomes dotted decimal), or why not. */
export function parseHttpUrl(value: string): { ok: true; url: URL; host: string } | { ok: false; code: 'invalid' | 'scheme'; message: string } {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return { ok: false, code: 'invalid', message: `"${value}" is not a URL.` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, code: 'scheme', message: `Only http and https URLs are fetched, not ${url.protocol.replace(/:$/, '')}.` }
  }
  return { ok: true, url, host: hostOf(url) }
}

/** The host without brackets or a trailing dot, lower case. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase()
}

function normalisePattern(pattern: string): string {
  return pattern.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
}

/** Whether a domain rule's pattern covers the host; `exact` when it names the host itself. */
export function domainMatch(pattern: string, host: string): 'exact' | 'wildcard' | null {
  const p = normalisePattern(pattern)
  if (p === '*') return 'wildcard'
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1 ? 'wildcard' : null
  return p === host ? 'exact' : null
}

/** The strictest Settings rule for a host, with whether an allow names it exactly. */
export function domainDecision(rules: readonly DomainRule[], host: string): { decision: Verdict; pattern: string; exact: boolean } | null {
  let best: { decision: Verdict; pattern: string; exact: boolean } | null = null
  const rank: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 }
  for (const rule of rules) {
    const match = domainMatch(rule.pattern, host)
    if (!match) continue
    if (!best || rank[rule.decision] > rank[best.decision] || (rule.decision === best.decision && match === 'exact')) {
      best = { decision: rule.decision, pattern: rule.pattern, exact: match === 'exact' }
    }
  }
  return best
}

/**
 * Whether an allow rule the person wrote in rules.json for this tool names the host as its one
 * token (docs/risk.md, "Network"). A saved "always" rule does not count: it was answered about a
 * public address, and must not let the name later lead to a private one.
 */
export function ruleNamesHost(rules: readonly LoadedRule[], tool: string, host: string): boolean {
  return rules.some((r) => r.source === 'user' && r.tool === tool && r.decision === 'allow' && r.match.length === 1 && r.match[0] === host)
}

/** A name that stays on this machine or network: `localhost`, `*.local`, `*.internal`, a name without dots. */
export function isLocalName(host: string): boolean {
  return isIP(host) === 0 && (LOCAL_NAME.test(host) || !host.includes('.'))
}

export interface UrlJudgement {
  /** Findings no allow rule waives: scheme, domain deny/ask, private addresses. */
  findings: RiskFinding[]
  /** Findings an allow rule for the host waives: a site not yet allowed. */
  waivable: RiskFinding[]
  /** The host (rules match it as one token); null when the URL is not one. */
  host: string | null
}

export class UrlGuardian {
  private readonly lookup: LookupAll
  private readonly domainRules: () => readonly DomainRule[]
  private readonly memo = new Map<string, { addresses: ResolvedAddress[]; at: number }>()

  constructor(options: UrlGuardianOptions = {}) {
    this.lookup = options.lookup ?? defaultLookup
    this.domainRules = options.domainRules ?? (() => [])
  }

  /**
   * Judges a URL as it is written and as it resolved for this judgement (resolve() before it, by
   * the tool's preview). `explicitlyAllowed` says whether a rules file allows this exact host.
   */
  judge(value: string, span: RiskSpan | null, explicitlyAllowed: (host: string) => boolean = () => false): UrlJudgement {
    const parsed = parseHttpUrl(value)
    if (!parsed.ok) return { findings: [{ rule: parsed.code === 'scheme' ? 'url.scheme' : 'url.invalid', message: parsed.message, verdict: 'deny', span }], waivable: [], host: null }
    const { host } = parsed
    const findings: RiskFinding[] = []
    const waivable: RiskFinding[] = []
    const domain = domainDecision(this.domainRules(), host)
    if (domain?.decision === 'deny') findings.push({ rule: 'url.domain-denied', message: `A domain rule denies ${host} (${domain.pattern}).`, verdict: 'deny', span })
    if (domain?.decision === 'ask') findings.push({ rule: 'url.domain-ask', message: `A domain rule asks before ${host} (${domain.pattern}).`, verdict: 'ask', span })
    const named = (domain?.decision === 'allow' && domain.exact) || explicitlyAllowed(host)
    if (!named) {
      const local = this.localReason(host)
      if (local) findings.push({ rule: 'url.private-address', message: local, verdict: 'ask', span })
    }
    if (!domain) waivable.push({ rule: 'url.new-domain', message: `${host} is not among the sites allowed in Settings or rules.`, verdict: 'ask', span })
    return { findings, waivable, host }
  }

  /** Resolves the URL's host for a judgement and remembers the answer; literal IPs are their own answer. */
  async resolve(value: string): Promise<{ ok: true; host: string; addresses: ResolvedAddress[] } | { ok: false; message: string }> {
    const parsed = parseHttpUrl(value)
    if (!parsed.ok) return { ok: false, message: parsed.message }
    const literal = isIP(parsed.host)
    if (literal) return { ok: true, host: parsed.host, addresses: [{ address: parsed.host, family: literal as 4 | 6 }] }
    try {
      const addresses = await this.lookup(parsed.host)
      this.remember(parsed.host, addresses)
      return { ok: true, host: parsed.host, addresses }
    } catch (error) {
      return { ok: false, message: `${parsed.host} did not resolve: ${errorMessage(error)}` }
    }
  }

  /**
   * The run-time check of one hop (docs/risk.md, "Network"): resolve again, refuse a denied domain
   * or a private address the judgement did not see, and name the one address to connect to, so a
   * rebinding DNS server cannot swap it between the check and the connection. The first hop may
   * reach a private address the judgement saw (a person was asked, or autonomy is full); a
   * redirect may only when the host is allowed by name.
   */
  async checkHop(value: string, options: { first: boolean; explicitlyAllowed?: (host: string) => boolean }): Promise<HopCheck> {
    const parsed = parseHttpUrl(value)
    if (!parsed.ok) return { ok: false, code: parsed.code, message: parsed.message, params: { url: value } }
    const { url, host } = parsed
    const domain = domainDecision(this.domainRules(), host)
    if (domain?.decision === 'deny') {
      return { ok: false, code: 'denied', message: `A domain rule denies ${host} (${domain.pattern}).`, params: { host, pattern: domain.pattern } }
    }
    const named = (domain?.decision === 'allow' && domain.exact) || (options.explicitlyAllowed?.(host) ?? false)
    const literal = isIP(host)
    let addresses: ResolvedAddress[]
    try {
      addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await this.lookup(host)
    } catch (error) {
      return { ok: false, code: 'unresolved', message: `${host} did not resolve: ${errorMessage(error)}`, params: { host } }
    }
    if (addresses.length === 0) return { ok: false, code: 'unresolved', message: `${host} did not resolve.`, params: { host } }
    const judgedLocal = options.first && (literal !== 0 || isLocalName(host) || this.judgedLocal(host))
    if (!named && !judgedLocal) {
      const local = addresses.find((a) => classifyAddress(a.address) !== null)
      if (local) {
        const kind = classifyAddress(local.address)!
        const rebound = options.first && !literal
        return {
          ok: false,
          code: rebound ? 'rebound' : 'private',
          message: rebound
            ? `${host} resolves to ${local.address}, ${describeAddressClass(kind)}, which it did not when the call was judged.`
            : `${host} resolves to ${local.address}, ${describeAddressClass(kind)}; only a site allowed by name in Settings or rules may lead there.`,
          params: { host, address: local.address }
        }
      }
    }
    return { ok: true, url, host, address: addresses[0]!, addresses }
  }

  /** Why a host counts as local, from its spelling or what it resolved to for this judgement; null when public. */
  private localReason(host: string): string | null {
    const literal = classifyAddress(host)
    if (literal) return `${host} is ${describeAddressClass(literal)}.`
    if (isLocalName(host)) return `${host} is a name on this machine or its local network.`
    for (const { address } of this.recalled(host)) {
      const kind = classifyAddress(address)
      if (kind) return `${host} resolves to ${address}, ${describeAddressClass(kind)}.`
    }
    return null
  }

  private judgedLocal(host: string): boolean {
    return this.recalled(host).some((a) => classifyAddress(a.address) !== null)
  }

  private recalled(host: string): ResolvedAddress[] {
    const entry = this.memo.get(host)
    if (!entry || Date.now() - entry.at > MEMO_MS) return []
    return entry.addresses
  }

  private remember(host: string, addresses: ResolvedAddress[]): void {
    this.memo.delete(host)
    this.memo.set(host, { addresses, at: Date.now() })
    while (this.memo.size > MEMO_MAX) this.memo.delete(this.memo.keys().next().value!)
  }
}

async function defaultLookup(host: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(host, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}
