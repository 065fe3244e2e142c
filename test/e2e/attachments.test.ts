/**
 * Attachments in messages, in a real Chromium through the web host, in English and Chinese: an
 * image by the picker, one by paste (a ClipboardEvent carrying a DataTransfer) and a text file by
 * drag and drop; a too-large image and a binary file are refused with the reason; a chip is removed
 * from the keyboard. The scripted model's recorded request holds the image parts (image input on),
 * the text file inlined, and, with image input off, the note instead (and the UI says so). The
 * sent message shows its thumbnails, also after a reload. Screenshot: image-attachment-{lang}.png.
 */
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import sharp from 'sharp'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

/** The browser globals the page-side helpers use (the tests compile without the DOM library). */
interface PageGlobals {
  atob(data: string): string
  DataTransfer: new () => { items: { add(file: unknown): void } }
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown
  ClipboardEvent: new (type: string, init: Record<string, unknown>) => unknown
  DragEvent: new (type: string, init: Record<string, unknown>) => unknown
}

interface PageFile {
  name: string
  mimeType: string
  base64: string
}

/** Dispatches `type` on the element with a DataTransfer holding these files, as a paste or a drag would. */
async function dispatchWithFiles(target: Locator, kind: 'paste' | 'dragenter' | 'drop', files: PageFile[]): Promise<void> {
  await target.evaluate(
    (element, { kind, files }) => {
      const page = globalThis as unknown as PageGlobals
      const transfer = new page.DataTransfer()
      for (const file of files) {
        const binary = page.atob(file.base64)
        const bytes = new Uint8Array(binary.length)
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
        transfer.items.add(new page.File([bytes], file.name, { type: file.mimeType }))
      }
      const init = { bubbles: true, cancelable: true }
      const event =
        kind === 'paste'
          ? new page.ClipboardEvent('paste', { ...init, clipboardData: transfer })
          : new page.DragEvent(kind, { ...init, dataTransfer: transfer })
      ;(element as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(event)
    },
    { kind, files }
  )
}

const TEXT: Record<
  Settings['language'],
  { answer: string; tooLarge: string; unsupported: string; unseen: string; attach: string; remove: string }
> = {
  en: {
    answer: 'A gradient with a circle, a screenshot, and your notes.',
    tooLarge: '“huge.png” is too large (11 MB): an image can be at most 10 MB.',
    unsupported: '“data.bin” cannot be attached',
    unseen: 'text-only',
    attach: 'Attach images or text files',
    remove: 'Remove extra.txt'
  },
  'zh-CN': {
    answer: '一张带圆形的渐变图、一张截图，还有你的笔记。',
    tooLarge: '“huge.png”太大（11 MB）：每张图片最大 10 MB。',
    unsupported: '无法附加“data.bin”',
    unseen: '纯文本模型',
    attach: '附加图片或文本文件',
    remove: '移除 extra.txt'
  }
}

let photo: Buffer
let pasted: Buffer
beforeAll(async () => {
  // Something worth looking at in the screenshot: a gradient with a shape.
  const svg = (from: string, to: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
        `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
        `<rect width="1280" height="800" fill="url(#g)"/><circle cx="900" cy="300" r="160" fill="#ffffff" fill-opacity="0.85"/>` +
        `<rect x="160" y="480" width="520" height="160" rx="24" fill="#1f2328" fill-opacity="0.6"/></svg>`
    )
  photo = await sharp(svg('#4f5ce5', '#e5484d')).png().toBuffer()
  pasted = await sharp(svg('#067647', '#f79009')).resize(640, 400).jpeg().toBuffer()
})

describe.skipIf(!hasChromium())('attachments in messages', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: picker, paste and drop; limits; image parts or the note; thumbnails after a reload`, async () => {
      const text = TEXT[language]
      session = await startUiSession([{ text: text.answer }, { text: 'I was only told about the image.' }], { language, imageInput: 'on' })
      const { page, host, server, temp } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const input = page.getByTestId('composer-input')
      const chips = page.getByTestId('attachment-chip')
      const error = page.getByTestId('attachment-error')

      // The picker: a labelled button that Tab reaches; the file goes through the hidden input.
      const attach = page.getByRole('button', { name: text.attach })
      await input.focus()
      await page.keyboard.press('Shift+Tab')
      expect(await attach.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      await page.getByTestId('attach-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photo })
      await expect.poll(() => chips.count()).toBe(1)
      expect(await chips.first().getAttribute('data-kind')).toBe('image')
      expect(await chips.first().innerText()).toContain('photo.png')
      await expect.poll(() => chips.first().getByTestId('attachment-chip-thumb').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1280)

      // Too large and not text: refused, each with its reason; nothing is added.
      await page.getByTestId('attach-input').setInputFiles([
        { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024 * 1024, 1) },
        { name: 'data.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0xff]) }
      ])
      await error.waitFor()
      await expect.poll(() => error.innerText()).toContain(text.tooLarge)
      expect(await error.innerText()).toContain(text.unsupported)
      expect(await chips.count()).toBe(1)

      // Paste: a screenshot on the clipboard becomes an attachment, not text.
      await dispatchWithFiles(input, 'paste', [{ name: 'screenshot.jpg', mimeType: 'image/jpeg', base64: pasted.toString('base64') }])
      await expect.poll(() => chips.count()).toBe(2)
      expect(await input.inputValue()).toBe('')

      // Drag and drop onto the chat: the hint shows while files are held over it.
      const chat = page.getByTestId('message-list')
      const notes = { name: 'notes.md', mimeType: 'text/markdown', base64: Buffer.from('# Notes\n\n- the circle is white\n').toString('base64') }
      await dispatchWithFiles(chat, 'dragenter', [notes])
      await page.getByTestId('drop-hint').waitFor()
      await dispatchWithFiles(chat, 'drop', [notes])
      await page.getByTestId('drop-hint').waitFor({ state: 'hidden' })
      await expect.poll(() => chips.count()).toBe(3)
      expect(await chips.nth(2).getAttribute('data-kind')).toBe('text')

      // One more, removed again from the keyboard.
      await page.getByTestId('attach-input').setInputFiles({ name: 'extra.txt', mimeType: 'text/plain', buffer: Buffer.from('not needed') })
      await expect.poll(() => chips.count()).toBe(4)
      await page.getByRole('button', { name: text.remove }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => chips.count()).toBe(3)

      await input.fill(language === 'zh-CN' ? '图里有什么？' : 'What is in these?')
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').first().waitFor()
      await expect.poll(() => chips.count()).toBe(0)

      // The request: the text with the file inlined, then each image as an image part after its name.
      const firstRequest = server.requests.find((request) => request.path === '/v1/chat/completions')!
      const user = firstRequest.body.messages.find((message: { role: string }) => message.role === 'user')
      const parts = user.content as Array<{ type: string; text?: string; image_url?: { url: string } }>
      expect(parts.map((part) => part.type)).toEqual(['text', 'text', 'image_url', 'text', 'image_url'])
      expect(parts[0]!.text).toContain('Attached file “notes.md”')
      expect(parts[0]!.text).toContain('- the circle is white')
      expect(parts[0]!.text).not.toContain('not needed')
      expect(parts[1]!.text).toBe('[image photo.png (1280×800):]')
      expect(parts[2]!.image_url!.url).toBe(`data:image/png;base64,${photo.toString('base64')}`)
      expect(parts[3]!.text).toBe('[image screenshot.jpg (640×400):]')
      expect(parts[4]!.image_url!.url).toBe(`data:image/jpeg;base64,${pasted.toString('base64')}`)

      // The sent message shows the two thumbnails and the file.
      const question = page.getByTestId('message-user').first()
      const thumbs = question.locator('img[data-attachment-id]')
      await expect.poll(() => thumbs.count()).toBe(2)
      await expect.poll(() => thumbs.first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1280)
      expect(await question.getByTestId('message-attachment-file').innerText()).toContain('notes.md')
      await page.getByTestId('message-assistant').first().getByText(text.answer).waitFor()
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `image-attachment-${language}.png`) })

      // After a reload the bubble still has them (read back from the store).
      await page.reload()
      await page.getByTestId('conversation-item').first().click()
      await expect.poll(() => page.getByTestId('message-user').first().locator('img[data-attachment-id]').count(), { timeout: 15_000 }).toBe(2)
      await expect
        .poll(() =>
          page
            .getByTestId('message-user')
            .first()
            .locator('img[data-attachment-id]')
            .evaluateAll((imgs) => imgs.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        )
        .toEqual([1280, 640])
      expect(await page.getByTestId('message-user').first().getByTestId('message-attachment-file').innerText()).toContain('notes.md')

      // Image input off: the model gets the note instead, and the user is told.
      temp.app.updateSettings({ imageInput: 'off' })
      await page.getByTestId('attach-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photo })
      await expect.poll(() => chips.count()).toBe(1)
      await page.getByTestId('composer-input').fill(language === 'zh-CN' ? '再看一次' : 'And this one?')
      await page.getByTestId('send-button').click()
      await expect.poll(() => page.getByTestId('notice').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(text.unseen)]))
      await expect.poll(() => server.requests.filter((request) => request.path === '/v1/chat/completions').length).toBe(2)
      const second = server.requests.filter((request) => request.path === '/v1/chat/completions')[1]!
      const users = second.body.messages.filter((message: { role: string }) => message.role === 'user')
      expect(users.at(-1).content).toBe(
        `${language === 'zh-CN' ? '再看一次' : 'And this one?'}\n[image photo.png (1280×800) attached; this model cannot see images]`
      )
      // The earlier images are notes now too: nothing in the request is an image.
      expect(JSON.stringify(second.body)).not.toContain('image_url')
      expect(JSON.stringify(users[0].content)).toContain('[image screenshot.jpg (640×400) attached; this model cannot see images]')
    })
  }
})
