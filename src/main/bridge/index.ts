/** The bridge: the handler table behind the typed contract, its dispatcher, and the web host. */
export { createBridgeHandlers, type HandlerTable } from './handlers'
export { dispatchCall } from './dispatch'
export { startWebHost, type WebHost, type WebHostOptions } from './web-host'
export { isTrustedSender, type SenderFacts, type TrustedOrigins } from './sender-policy'
export { contentSecurityPolicy, type CspBuild } from './csp'
