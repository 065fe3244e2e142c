/**
 * The Devices panel in a real Chromium against the web host: a virtual serial port (a socat pty
 * pair) added by path through the panel shows up in the list; its console opens it, sends `AT`
 * and shows the `OK` the echo modem on the other end answers (serialport's SerialPort); killing
 * socat (the device "unplugged") removes the row and the console says the device went away.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { requireSocat, startEchoModem, startPtyPair, type PtyPair } from '../helpers/pty-pair'
import { startUiSession, type UiSession } from '../helpers/ui-session'

describe.skipIf(!hasChromium() || !requireSocat())('devices panel', () => {
  let session: UiSession | undefined
  let pair: PtyPair | undefined
  let modem: Awaited<ReturnType<typeof startEchoModem>> | undefined

  afterAll(async () => {
    await modem?.close()
    await pair?.dispose()
    await session?.close()
  })

  it('adds a virtual port by path, talks to it in the console, and sees it go away', async () => {
    // A serial cable in software; the far end answers OK to each line, as a modem would.
    pair = await startPtyPair()
    const v0 = pair.a
    modem = await startEchoModem(pair.b)

    session = await startUiSession([])
    const { page, host, temp } = session
    await page.goto(host.url)
    await page.getByTestId('devices-button').click()
    const panel = page.getByTestId('devices-panel')
    await panel.waitFor({ state: 'visible' })

    // Every backend says how it is; a missing one says why (this container has no USB bus, for one).
    const backends = panel.getByTestId('device-backend')
    await backends.first().waitFor()
    expect(await backends.count()).toBe(3)
    for (const backend of await panel.locator('[data-testid="device-backend"][data-available="false"]').all()) {
      expect(await backend.getByTestId('device-backend-why').innerText()).not.toBe('')
    }
    // Nothing plugged (as here) reads as such, not as an empty box.
    if ((await panel.getByTestId('device-row').count()) === 0) await panel.getByTestId('devices-empty').waitFor()

    // Added by path through the panel: saved in settings.serialPorts, then listed once main sees it exists.
    await panel.getByTestId('add-port-input').fill(v0)
    await panel.getByTestId('add-port-button').click()
    await expect.poll(() => temp.app.settings().serialPorts).toEqual([v0])
    const added = panel.locator(`[data-testid="added-port"][data-path="${v0}"]`)
    await added.waitFor()
    const row = panel.locator(`[data-testid="device-row"][data-ports~="${v0}"]`)
    await row.waitFor({ timeout: 20_000 })
    // It arrived live (devices_changed), so it is highlighted for a moment.
    expect(await row.getAttribute('data-fresh')).toBe('true')
    await expect.poll(() => added.getAttribute('data-present')).toBe('true')

    // The console: defaults, open, AT → OK.
    await row.locator(`[data-testid="device-console"][data-port="${v0}"]`).click()
    const serial = panel.getByTestId('serial-console')
    await serial.waitFor()
    expect(await serial.getAttribute('data-path')).toBe(v0)
    expect(await serial.getByTestId('serial-baud').inputValue()).toBe('115200')
    expect(await serial.getByTestId('serial-line-ending').inputValue()).toBe('crlf')
    expect(await serial.getByTestId('serial-send').isDisabled()).toBe(true)
    await serial.getByTestId('serial-open').click()
    const status = serial.getByTestId('serial-status')
    await expect.poll(() => status.getAttribute('data-state')).toBe('open')
    const input = serial.getByTestId('serial-input')
    await input.fill('AT')
    await input.press('Enter')
    const output = serial.getByTestId('serial-output')
    await expect.poll(() => output.locator('.serial-in').allInnerTexts()).toContain('OK')
    expect(await output.getByTestId('serial-sent').allInnerTexts()).toEqual([expect.stringContaining('AT')])
    expect(await input.inputValue()).toBe('')
    // Send by the button too.
    await input.fill('AT+GMR')
    await serial.getByTestId('serial-send').click()
    await expect.poll(() => output.innerText()).toMatch(/AT\+GMR[\s\S]*OK/)
    expect(modem.lines).toEqual(['AT', 'AT+GMR'])

    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'devices-panel.png') })
    await page.emulateMedia({ colorScheme: 'dark' })
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'devices-panel-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })

    // Unplugged: the row goes, the console says the device went away, the added port is not found.
    await pair.unplug()
    await row.waitFor({ state: 'detached', timeout: 20_000 })
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('disconnected')
    expect(await status.innerText()).toContain('went away')
    expect(await serial.getByTestId('serial-input').isDisabled()).toBe(true)
    await expect.poll(() => added.getAttribute('data-present')).toBe('false')

    // Removing the added port takes it out of settings.
    await added.getByTestId('added-port-remove').click()
    await added.waitFor({ state: 'detached' })
    expect(temp.app.settings().serialPorts).toEqual([])

    // In Chinese.
    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
    await page.getByTestId('language-toggle').click()
    await expect.poll(() => page.getByTestId('devices-button').innerText()).toBe('设备')
    await page.getByTestId('devices-button').click()
    await panel.waitFor()
    expect(await panel.locator('.dialog-title').innerText()).toBe('设备')
    expect(await panel.getByTestId('add-port-button').innerText()).toBe('添加端口')
  })
})
