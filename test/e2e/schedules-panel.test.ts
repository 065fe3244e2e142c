/**
 * The Schedules panel in a real Chromium against the web host, in English and Chinese (docs/tools.md,
 * "Schedules"): add with a preset, a raw cron field with its next three times (a bad one refused),
 * run now with the last result linking to its conversation, disable, the missed-run setting, delete.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXTS = {
  en: { title: 'Schedules', weekdays: 'Every weekday at 9:00', next: 'Next:', bad: 'is not a cron expression', done: 'Finished' },
  'zh-CN': { title: '定时任务', weekdays: '每个工作日 9:00', next: '接下来：', bad: '不是有效的 cron 表达式', done: '已完成' }
} as const

describe.skipIf(!hasChromium())('schedules panel', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`adds, previews, runs now, opens the run, disables and deletes a task (${language})`, async () => {
      const said = TEXTS[language]
      session = await startUiSession([{ text: 'Report: all quiet.' }], { language })
      const { page, host, temp } = session
      await page.goto(host.url)
      await page.getByTestId('schedules-button').click()
      const panel = page.getByTestId('schedules-panel')
      await expect.poll(() => panel.getByRole('heading').textContent()).toBe(said.title)
      await panel.getByTestId('schedules-empty').waitFor()

      await panel.getByTestId('schedule-add').click()
      await panel.getByTestId('schedule-name').fill('日报')
      await panel.getByTestId('schedule-prompt').fill('Write the daily report')
      // The preset's next three times.
      const next = panel.getByTestId('schedule-next')
      await expect.poll(() => next.textContent()).toContain(said.next)
      expect(((await next.textContent()) ?? '').split('·')).toHaveLength(3)
      expect(await panel.getByTestId('schedule-preset').locator('option:checked').textContent()).toBe(said.weekdays)
      // A raw cron field: a bad expression is refused, a good one previewed.
      await panel.getByTestId('schedule-preset').selectOption('custom')
      await panel.getByTestId('schedule-cron').fill('61 8 * * *')
      await expect.poll(() => next.textContent()).toContain(said.bad)
      expect(await panel.getByTestId('schedule-save').isDisabled()).toBe(true)
      await panel.getByTestId('schedule-cron').fill('30 8 * * *')
      await expect.poll(() => next.textContent()).toContain(said.next)
      await panel.getByTestId('schedule-save').click()

      const row = panel.getByTestId('schedule-row')
      await row.waitFor()
      const [task] = temp.app.schedules.list()
      expect(task).toMatchObject({ name: '日报', prompt: 'Write the daily report', schedule: { kind: 'cron', cron: '30 8 * * *' }, workspace: temp.workspace, enabled: true })
      expect(new Date(task!.nextRunAt!).getHours()).toBe(8)

      // Run now: the last result links to its conversation.
      await row.getByTestId('schedule-run-now').click()
      await expect.poll(() => row.getByTestId('schedule-row-last').getAttribute('data-status'), { timeout: 15_000 }).toBe('completed')
      expect(await row.getByTestId('schedule-row-last').textContent()).toContain(said.done)
      await row.getByTestId('schedule-open-run').click()
      await page.getByText('Report: all quiet.').waitFor()

      // Disable, the missed-run setting, delete.
      await page.getByTestId('schedules-button').click()
      await panel.getByTestId('schedule-enabled').click() // controlled: it turns off once the task says so
      await expect.poll(() => panel.getByTestId('schedule-row').getAttribute('data-enabled')).toBe('false')
      expect(temp.app.schedules.list()[0]).toMatchObject({ enabled: false, nextRunAt: null })
      await panel.getByTestId('schedule-missed').selectOption('skip')
      await expect.poll(() => temp.app.settings().scheduleMissedRuns).toBe('skip')
      await panel.getByTestId('schedule-delete').click()
      await panel.getByTestId('schedules-empty').waitFor()
      expect(temp.app.schedules.list()).toEqual([])
    })
  }
})
