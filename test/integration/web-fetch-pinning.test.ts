import { afterEach, describe, expect, it } from 'vitest'
import type { WebHop, WebToolServices } from '../../src/main/tools'
import { sendRequest } from '../../src/main/tools/web/http-client'
import { startTestSite, type TestSite } from '../helpers/web-site'

/**
 * The connection goes to the address the guardian checked, never to a second DNS answer
 * (docs/risk.md, "Network"): a name no resolver knows reaches the loopback site the check named,
 * with the name kept in the Host header; and a hop the check refuses sends nothing.
 */
const sites: TestSite[] = []
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()))
})

function services(check: (url: string, first: boolean) => WebHop): WebToolServices & { hops: string[] } {
  const hops: string[] = []
  return {
    hops,
    resolve: async () => ({ ok: true, addresses: [] }),
    checkHop: async (_tool, url, first) => {
      hops.push(url)
      return check(url, first)
    },
    settings: () => ({ webMaxBytes: 1_000_000, webTimeoutSec: 5 })
  }
}

describe('the pinned connection', () => {
  it('connects to the checked address, whatever the name would resolve to, and keeps the name in Host', async () => {
    const web = await startTestSite({ '/x': (req) => ({ body: `host=${req.headers.host}` }) })
    sites.push(web)
    const pinned = services(() => ({ ok: true, host: 'pinned.invalid', address: { address: '127.0.0.1', family: 4 } }))
    const response = await sendRequest(pinned, 'test', { method: 'GET', url: `http://pinned.invalid:${web.port}/x`, headers: {} }, new AbortController().signal)
    expect(response.ok).toBe(true)
    if (!response.ok) return
    expect(response.body.toString()).toBe(`host=pinned.invalid:${web.port}`)
    expect(web.requests).toHaveLength(1)
  })

  it('checks every hop before it is sent, and a refused hop gets nothing', async () => {
    const target = await startTestSite({ '/t': () => ({ body: 'reached' }) })
    const web = await startTestSite({ '/r': () => ({ status: 302, headers: { location: `http://127.0.0.1:${target.port}/t` } }) })
    sites.push(target, web)
    const refuseSecond = services((_url, first) =>
      first ? { ok: true, host: '127.0.0.1', address: { address: '127.0.0.1', family: 4 } } : { ok: false, code: 'private', message: 'no', params: {} }
    )
    const response = await sendRequest(refuseSecond, 'test', { method: 'GET', url: `${web.url}/r`, headers: {} }, new AbortController().signal)
    expect(response).toMatchObject({ ok: false, kind: 'blocked', url: `http://127.0.0.1:${target.port}/t` })
    expect(refuseSecond.hops).toEqual([`${web.url}/r`, `http://127.0.0.1:${target.port}/t`])
    expect(target.requests).toHaveLength(0)
  })

  it('drops Authorization and Cookie on a redirect to another origin, keeps them on the same origin', async () => {
    const other = await startTestSite({ '/o': (req) => ({ body: JSON.stringify({ auth: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null }) }) })
    const web = await startTestSite({
      '/same': () => ({ status: 307, headers: { location: '/echo' } }),
      '/echo': (req) => ({ body: JSON.stringify({ auth: req.headers.authorization ?? null }) }),
      '/away': () => ({ status: 302, headers: { location: `http://127.0.0.1:${other.port}/o` } })
    })
    sites.push(other, web)
    const allow = services(() => ({ ok: true, host: '127.0.0.1', address: { address: '127.0.0.1', family: 4 } }))
    const headers = { Authorization: 'Bearer abcdefgh', Cookie: 'sid=12345678' }
    const same = await sendRequest(allow, 'test', { method: 'GET', url: `${web.url}/same`, headers }, new AbortController().signal)
    expect(same.ok && same.body.toString()).toBe('{"auth":"Bearer abcdefgh"}')
    const away = await sendRequest(allow, 'test', { method: 'GET', url: `${web.url}/away`, headers }, new AbortController().signal)
    expect(away.ok && away.body.toString()).toBe('{"auth":null,"cookie":null}')
  })
})
