import { describe, expect, it } from 'vitest'
import { domainMatch, fromRules, RiskEngine, UrlGuardian, type DomainRule, type ResolvedAddress } from '../../../src/main/risk'
import type { Autonomy } from '../../../src/shared'

/** The URL guardian and how the engine judges `url` subjects with it (docs/risk.md, "Network"). */
const addresses: Record<string, ResolvedAddress[]> = {
  'example.com': [{ address: '93.184.215.14', family: 4 }],
  'intranet.example.com': [{ address: '10.1.2.3', family: 4 }],
  'rebind.example.net': [{ address: '93.184.215.15', family: 4 }],
  'six.example.org': [{ address: 'fd00::5', family: 6 }]
}
const lookup = async (host: string) => {
  const found = addresses[host]
  if (!found) throw new Error('ENOTFOUND')
  return found
}

async function engineWith(domainRules: DomainRule[] = [], rules = fromRules([], 'user')) {
  const urls = new UrlGuardian({ lookup, domainRules: () => domainRules })
  const engine = await RiskEngine.create({ home: '/home/u', rules, subjectKindOf: () => 'url', urls })
  const judge = (url: string, access: 'read' | 'write' = 'read', autonomy: Autonomy = 'supervised', tool = 'web_fetch') =>
    engine.assess({ tool, category: 'network', access, subject: { kind: 'url', value: url, arg: 'url' } }, { workspace: '/tmp', autonomy })
  return { urls, engine, judge }
}

const rules = (assessment: { findings: Array<{ rule: string }> }) => assessment.findings.map((f) => f.rule)

describe('domain patterns', () => {
  it('match a host exactly, subdomains by *., everything by *', () => {
    expect(domainMatch('example.com', 'example.com')).toBe('exact')
    expect(domainMatch('Example.COM.', 'example.com')).toBe('exact')
    expect(domainMatch('example.com', 'docs.example.com')).toBeNull()
    expect(domainMatch('*.example.com', 'docs.example.com')).toBe('wildcard')
    expect(domainMatch('*.example.com', 'example.com')).toBeNull()
    expect(domainMatch('*.example.com', 'evilexample.com')).toBeNull()
    expect(domainMatch('*', 'anything.test')).toBe('wildcard')
  })
})

describe('the engine on url subjects', () => {
  it('a site not yet allowed asks in supervised mode; a Settings allow runs it; full runs it', async () => {
    const { judge } = await engineWith([{ pattern: '*.allowed.test', decision: 'allow' }])
    const unknown = judge('https://example.com/page')
    expect(unknown.verdict).toBe('ask')
    expect(rules(unknown)).toEqual(['url.new-domain'])
    expect(unknown.alwaysRule).toEqual({ tool: 'web_fetch', match: ['example.com'], decision: 'allow', why: 'Allowed always by the user' })
    expect(judge('https://docs.allowed.test/a').verdict).toBe('allow')
    expect(judge('https://example.com/page', 'read', 'full').verdict).toBe('allow')
    expect(judge('https://example.com/page', 'read', 'readonly').verdict).toBe('deny')
  })

  it('a user allow rule for the host waives "new site"; a project allow rule is ignored', async () => {
    const user = await engineWith([], fromRules([{ tool: 'web_fetch', match: ['example.com'], decision: 'allow' }], 'user'))
    expect(user.judge('https://example.com/x').verdict).toBe('allow')
    const project = await engineWith([], fromRules([{ tool: 'web_fetch', match: ['example.com'], decision: 'allow' }], 'project'))
    expect(project.judge('https://example.com/x').verdict).toBe('ask')
    // A saved "always" for a public host runs it, but does not let the name lead to a private address later.
    const saved = await engineWith([], fromRules([{ tool: 'web_fetch', match: ['intranet.example.com'], decision: 'allow' }], 'saved'))
    await saved.urls.resolve('https://intranet.example.com/')
    expect(rules(saved.judge('https://intranet.example.com/'))).toEqual(['url.private-address', 'rule.saved'])
    const named = await engineWith([], fromRules([{ tool: 'web_fetch', match: ['intranet.example.com'], decision: 'allow' }], 'user'))
    await named.urls.resolve('https://intranet.example.com/')
    expect(named.judge('https://intranet.example.com/').verdict).toBe('allow')
  })

  it("a URL rule's examples may be hosts or whole URLs; one that disagrees makes every call ask", async () => {
    const good = fromRules([{ tool: 'web_fetch', match: ['example.com'], decision: 'allow', examples: { match: ['https://example.com/a?b=1', 'example.com'], notMatch: ['https://docs.example.com/'] } }], 'user')
    expect((await engineWith([], good)).engine.ruleSet.errors).toEqual([])
    const bad = fromRules([{ tool: 'web_fetch', match: ['example.com'], decision: 'allow', examples: { match: ['https://example.org/'] } }], 'user')
    const { engine, judge } = await engineWith([], bad)
    expect(engine.ruleSet.errors[0]).toMatch(/should match "https:\/\/example\.org\/"/)
    expect(rules(judge('https://example.com/'))).toContain('rule.load-error')
  })

  it('deny rules, in Settings or a rules file, deny', async () => {
    const settings = await engineWith([{ pattern: '*.bad.test', decision: 'deny' }, { pattern: '*', decision: 'allow' }])
    const denied = settings.judge('https://x.bad.test/')
    expect(denied.verdict).toBe('deny')
    expect(rules(denied)).toContain('url.domain-denied')
    const file = await engineWith([], fromRules([{ tool: 'web_fetch', match: ['bad.test'], decision: 'deny' }], 'project'))
    expect(file.judge('https://bad.test/').verdict).toBe('deny')
    const asks = await engineWith([{ pattern: 'slow.test', decision: 'ask' }, { pattern: '*', decision: 'allow' }])
    expect(rules(asks.judge('https://slow.test/'))).toEqual(['url.domain-ask'])
  })

  it('only http and https: file:, ftp:, javascript: and non-URLs are denied', async () => {
    const { judge } = await engineWith([{ pattern: '*', decision: 'allow' }])
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', 'gopher://x/', 'not a url']) {
      expect(judge(url).verdict, url).toBe('deny')
    }
  })

  it('loopback, private names and resolved private addresses ask even when every site is allowed; an allow naming the host waives it', async () => {
    const { judge, urls } = await engineWith([{ pattern: '*', decision: 'allow' }, { pattern: '127.0.0.1', decision: 'allow' }])
    expect(rules(judge('http://localhost:3000/'))).toContain('url.private-address')
    expect(rules(judge('http://printer.local/'))).toContain('url.private-address')
    expect(rules(judge('http://router/'))).toContain('url.private-address')
    expect(rules(judge('http://[::1]/'))).toContain('url.private-address')
    expect(judge('http://127.0.0.1:8080/').verdict).toBe('allow')
    expect(judge('http://2130706433:8080/').verdict).toBe('allow') // the same address, spelt as a number
    // A public-looking name whose judgement-time resolution is private.
    expect(judge('https://intranet.example.com/').verdict).toBe('allow')
    await urls.resolve('https://intranet.example.com/')
    const resolved = judge('https://intranet.example.com/')
    expect(resolved.verdict).toBe('ask')
    expect(resolved.findings[0]!.message).toMatch(/resolves to 10\.1\.2\.3, a private network address/)
    await urls.resolve('https://six.example.org/')
    expect(rules(judge('https://six.example.org/'))).toContain('url.private-address')
  })

  it('a request that is not a read asks in supervised mode even for an allowed site, and is never saved as "always"', async () => {
    const { judge } = await engineWith(
      [{ pattern: 'example.com', decision: 'allow' }],
      fromRules([{ tool: 'http_request', match: ['example.com'], decision: 'allow' }], 'user')
    )
    const asked = judge('https://example.com/api', 'write', 'supervised', 'http_request')
    expect(asked.verdict).toBe('ask')
    expect(rules(asked)).toContain('tool.network_write')
    expect(asked.alwaysRule).toBeNull()
    expect(judge('https://example.com/api', 'write', 'full', 'http_request').verdict).toBe('allow')
  })
})

describe('run-time hops', () => {
  it('connect to the address checked now, and refuse a first hop that resolves private when it was judged public (DNS rebinding)', async () => {
    const urls = new UrlGuardian({ lookup, domainRules: () => [{ pattern: '*', decision: 'allow' }] })
    await urls.resolve('https://rebind.example.net/')
    const first = await urls.checkHop('https://rebind.example.net/', { first: true })
    expect(first).toMatchObject({ ok: true, address: { address: '93.184.215.15' } })
    addresses['rebind.example.net'] = [{ address: '127.0.0.1', family: 4 }]
    const rebound = await urls.checkHop('https://rebind.example.net/', { first: true })
    expect(rebound).toMatchObject({ ok: false, code: 'rebound' })
  })

  it('a redirect to a private address stops unless the host is allowed by name; a denied domain stops first', async () => {
    const urls = new UrlGuardian({ lookup, domainRules: () => [{ pattern: 'bad.test', decision: 'deny' }] })
    expect(await urls.checkHop('http://127.0.0.1:9/', { first: false })).toMatchObject({ ok: false, code: 'private' })
    expect(await urls.checkHop('http://127.0.0.1:9/', { first: false, explicitlyAllowed: (h) => h === '127.0.0.1' })).toMatchObject({ ok: true })
    expect(await urls.checkHop('http://bad.test/', { first: false })).toMatchObject({ ok: false, code: 'denied' })
    expect(await urls.checkHop('ftp://example.com/', { first: false })).toMatchObject({ ok: false, code: 'scheme' })
    expect(await urls.checkHop('https://nowhere.invalid/', { first: false })).toMatchObject({ ok: false, code: 'unresolved' })
    // The first hop may reach what the judgement saw: a literal loopback address a person was asked about.
    expect(await urls.checkHop('http://127.0.0.1:9/', { first: true })).toMatchObject({ ok: true })
  })
})
