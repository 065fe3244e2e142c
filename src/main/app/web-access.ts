import type { Settings } from '../../shared'
import { ruleNamesHost, type RiskEngine, type UrlGuardian } from '../risk'
import type { WebToolServices } from '../tools'

/**
 * The URL guardian as the web tools see it (docs/risk.md, "Network"): the tools sit below risk/,
 * so the composition root hands them these three functions. A redirect may reach a private address
 * only for a host a Settings domain rule or a user rule of the same tool allows by name.
 */
export function webAccess(urls: UrlGuardian, risk: () => Promise<RiskEngine>, settings: () => Settings): WebToolServices {
  return {
    resolve: async (url) => {
      const resolved = await urls.resolve(url)
      return resolved.ok ? { ok: true, addresses: resolved.addresses.map((a) => a.address) } : resolved
    },
    checkHop: async (tool, url, first) => {
      const rules = (await risk()).ruleSet.rules
      const hop = await urls.checkHop(url, { first, explicitlyAllowed: (host) => ruleNamesHost(rules, tool, host) })
      return hop.ok ? { ok: true, host: hop.host, address: hop.address, addresses: hop.addresses } : hop
    },
    settings: () => settings()
  }
}
