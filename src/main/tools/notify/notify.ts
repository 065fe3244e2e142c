import { z } from 'zod'
import type { NotificationService } from '../../notifications'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { noSink, trusted } from '../../provenance'

export interface NotifyToolServices {
  notifications: NotificationService
}

/**
 * notify (docs/tools.md, "Notifications"): tells the user something on this machine — a native
 * notification in the app, the browser's in the web UI, a line in the CLI. A read as far as risk
 * goes: it only informs the person at this computer and sends nothing anywhere, so it runs without
 * a question.
 */
export function createNotifyTool(services: NotifyToolServices) {
  return defineTool({
    name: 'notify',
    repeat: 'may-differ',
    description:
      'Show the user a desktop notification on this computer, e.g. when a long task is done or needs their attention. ' +
      'It reaches only the person at this machine (nobody else); keep the title short. Do not use it for the answer itself.',
    shortDescription: 'Show the user a desktop notification with a short "title" and an optional "body" on this computer.',
    category: 'messaging',
    access: 'read',
    source: trusted,
    sink: noSink,
    input: z.object({
      title: z.string().trim().min(1).max(100).describe('A few words'),
      body: z.string().trim().max(500).optional().describe('One or two sentences')
    }),
    summary: (args) => (args.body ? `${args.title}: ${args.body}` : args.title),
    preview: (args) => ({
      title: text('title'),
      fields: [{ label: text('noticeTitle'), value: args.title, arg: 'title' }, ...(args.body ? [{ label: text('body'), value: args.body, arg: 'body' }] : [])]
    }),
    messages: {
      en: { title: 'Notify me', noticeTitle: 'Title', body: 'Text', 'result.shown': 'Notification shown: "{title}"', 'result.sent': 'Notification sent to the open DeskClaw windows: "{title}"' },
      'zh-CN': { title: '通知我', noticeTitle: '标题', body: '内容', 'result.shown': '已显示通知：“{title}”', 'result.sent': '已向打开的 DeskClaw 窗口发送通知：“{title}”' }
    },
    run: async (args, ctx) => {
      const delivery = services.notifications.notify({ reason: 'agent', title: args.title, body: args.body ?? '', conversationId: ctx.conversationId, runId: ctx.runId })
      if (delivery.native) return withDisplay(ok('The notification was shown on this computer.'), text('result.shown', { title: args.title }))
      const why = delivery.nativeProblem ? ` (no native notification: ${delivery.nativeProblem})` : ''
      return withDisplay(ok(`The notification was sent to DeskClaw's open windows and terminal${why}.`), text('result.sent', { title: args.title }))
    }
  })
}
