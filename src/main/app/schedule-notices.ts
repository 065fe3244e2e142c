import type { Language, Notice } from '../../shared'

/**
 * The words of a scheduled run's notification, in the user's language (docs/tools.md, "Schedules"):
 * a native notification shows them as they are, so main writes them; `text` lets a window render
 * its own language.
 */
const TEXTS = {
  en: {
    run_finished: { title: 'Scheduled task finished', body: '“{name}” is done. Open its conversation to read the answer.' },
    run_failed: { title: 'Scheduled task failed', body: '“{name}” failed: {error}' },
    approval_waiting: { title: 'Scheduled task needs you', body: '“{name}” is waiting for your approval. Without an answer it is denied.' }
  },
  'zh-CN': {
    run_finished: { title: '定时任务已完成', body: '“{name}”已完成，打开它的对话查看结果。' },
    run_failed: { title: '定时任务失败', body: '“{name}”失败：{error}' },
    approval_waiting: { title: '定时任务需要你确认', body: '“{name}”正在等待你的批准，超时未答复将被拒绝。' }
  }
} as const

export type ScheduleNoticeReason = keyof (typeof TEXTS)['en']

export function scheduleNotice(reason: ScheduleNoticeReason, name: string, language: Language, error = ''): Pick<Notice, 'title' | 'body' | 'text'> {
  const texts = TEXTS[language] ?? TEXTS.en
  const { title, body } = texts[reason]
  return {
    title,
    body: body.replace('{name}', name).replace('{error}', error),
    text: { key: `notices.schedule.${reason}`, params: { name, ...(error ? { error } : {}) } }
  }
}
