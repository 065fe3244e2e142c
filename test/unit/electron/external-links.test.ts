import { describe, expect, it } from 'vitest'
import { linkDialogOptions, LINK_DIALOG_OPEN } from '../../../src/main/electron/policy/link-dialog'
import { EXTERNAL_LINK_SCHEMES, externalLinkDecision } from '../../../src/shared/external-links'

describe('externalLinkDecision', () => {
  it('opens only the web and e-mail', () => {
    expect(EXTERNAL_LINK_SCHEMES).toEqual(['http:', 'https:', 'mailto:'])
  })

  it.each([
    ['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d', 'example.com'],
    ['  http://example.com:8080/x  ', 'http://example.com:8080/x', 'example.com:8080'],
    ['HTTPS://EXAMPLE.com', 'https://example.com/', 'example.com'],
    // Homographs are shown in punycode: what opens is what is shown.
    ['https://exаmple.com/', 'https://xn--exmple-4nf.com/', 'xn--exmple-4nf.com'],
    // Credentials stay visible in the full URL; the site is the real host.
    ['https://paypal.com@evil.example/login', 'https://paypal.com@evil.example/login', 'evil.example'],
    ['mailto:someone@example.com', 'mailto:someone@example.com', 'someone@example.com']
  ])('allows %s, showing the full URL %s (site %s)', (href, url, site) => {
    expect(externalLinkDecision(href)).toEqual({ allowed: true, url, display: url, site })
  })

  it('never shortens the address', () => {
    const long = `https://example.com/${'a'.repeat(5000)}`
    const decision = externalLinkDecision(long)
    expect(decision.allowed && decision.display).toBe(long)
  })

  it.each([
    ['javascript:alert(1)', 'scheme'],
    ['JaVaScRiPt:alert(1)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['data:text/html,<script>alert(1)</script>', 'scheme'],
    ['app://deskclaw/index.html', 'scheme'],
    ['vbscript:x', 'scheme'],
    ['ftp://example.com/', 'scheme'],
    ['smb://server/share', 'scheme'],
    ['ms-settings:privacy', 'scheme'],
    ['/etc/passwd', 'unparseable'],
    ['#top', 'unparseable'],
    ['notes.md', 'unparseable'],
    ['mailto:', 'unparseable'],
    ['', 'empty'],
    ['   ', 'empty']
  ])('refuses %s (%s)', (href, reason) => {
    const decision = externalLinkDecision(href)
    expect(decision.allowed).toBe(false)
    expect(!decision.allowed && decision.reason).toBe(reason)
  })

  it('refuses a missing href', () => {
    expect(externalLinkDecision(undefined)).toEqual({ allowed: false, display: '', reason: 'empty' })
  })
})

describe('linkDialogOptions', () => {
  const decision = externalLinkDecision('https://paypal.com@evil.example/login')
  if (!decision.allowed) throw new Error('expected an allowed link')

  it('shows the site and the full URL, with Open / Cancel and Cancel as the default', () => {
    const options = linkDialogOptions(decision, 'en')
    expect(options.buttons).toEqual(['Open', 'Cancel'])
    expect(options.buttons![LINK_DIALOG_OPEN]).toBe('Open')
    expect(options.defaultId).toBe(1)
    expect(options.cancelId).toBe(1)
    expect(options.detail).toContain('https://paypal.com@evil.example/login')
    expect(options.detail).toContain('Site: evil.example')
  })

  it('speaks Chinese when the app does', () => {
    const options = linkDialogOptions(decision, 'zh-CN')
    expect(options.buttons).toEqual(['打开', '取消'])
    expect(options.detail).toContain('https://paypal.com@evil.example/login')
  })
})
