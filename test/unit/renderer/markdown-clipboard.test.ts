/**
 * copyText (features/chat/markdown/clipboard.ts), used by Copy under a message and on code blocks:
 * the Clipboard API first, the textarea + execCommand('copy') fallback when it is missing or refuses.
 * The browser is stubbed here; test/e2e/markdown.test.ts runs both paths in Chromium.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { copyText } from '../../../src/renderer/src/features/chat/markdown/clipboard'

class FakeElement {
  focused = false
  focus() {
    this.focused = true
  }
}

/** A document just big enough for the fallback; records what was selected when 'copy' ran. */
function fakeDocument(copyWorks: boolean) {
  const button = new FakeElement()
  const copied: string[] = []
  const appended: unknown[] = []
  const doc = {
    activeElement: button as unknown,
    body: { appendChild: (node: unknown) => appended.push(node) },
    createElement: () => {
      const area = {
        value: '',
        style: {} as Record<string, string>,
        attributes: {} as Record<string, string>,
        removed: false,
        setAttribute(name: string, value: string) {
          area.attributes[name] = value
        },
        select() {},
        setSelectionRange() {},
        remove() {
          area.removed = true
        }
      }
      return area
    },
    execCommand: (command: string) => {
      const area = appended[appended.length - 1] as { value: string }
      if (command === 'copy' && copyWorks) copied.push(area.value)
      return copyWorks
    }
  }
  return { doc, button, copied, appended: appended as Array<{ removed: boolean; attributes: Record<string, string> }> }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('copyText', () => {
  it('uses the Clipboard API when it works', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    const { doc, copied } = fakeDocument(true)
    vi.stubGlobal('document', doc)
    expect(await copyText('| a |\n| - |\n| $x$ |')).toBe(true)
    expect(writeText).toHaveBeenCalledWith('| a |\n| - |\n| $x$ |')
    expect(copied).toEqual([])
  })

  it('falls back to a hidden textarea when the API refuses, and gives focus back', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: async () => Promise.reject(new Error('NotAllowedError')) } })
    vi.stubGlobal('HTMLElement', FakeElement)
    const { doc, button, copied, appended } = fakeDocument(true)
    vi.stubGlobal('document', doc)
    expect(await copyText('二 ~~three~~')).toBe(true)
    expect(copied).toEqual(['二 ~~three~~'])
    expect(appended[0]!.removed).toBe(true)
    expect(appended[0]!.attributes['aria-hidden']).toBe('true')
    expect(button.focused).toBe(true)
  })

  it('falls back when there is no Clipboard API at all', async () => {
    vi.stubGlobal('navigator', {})
    vi.stubGlobal('HTMLElement', FakeElement)
    const { doc, copied } = fakeDocument(true)
    vi.stubGlobal('document', doc)
    expect(await copyText('plain')).toBe(true)
    expect(copied).toEqual(['plain'])
  })

  it('says so when neither way works', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: async () => Promise.reject(new Error('denied')) } })
    vi.stubGlobal('HTMLElement', FakeElement)
    const { doc, appended } = fakeDocument(false)
    vi.stubGlobal('document', doc)
    expect(await copyText('x')).toBe(false)
    expect(appended[0]!.removed).toBe(true)
  })
})
