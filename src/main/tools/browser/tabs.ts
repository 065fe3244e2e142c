import { z } from 'zod'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserTabsTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_tabs',
    repeat: 'may-differ',
    description: "List this conversation's browser tabs, switch to one, or close one (by its number in the list).",
    shortDescription: `"action" list shows this conversation's tabs; select or close one by its "index" in that list.`,
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({
      action: z.enum(['list', 'select', 'close']).describe('list, select (make it the tab the tools act on) or close'),
      index: z.number().int().min(1).max(100).optional().describe('The tab number, from list (select and close)')
    }),
    confirmsDuringRun: true,
    summary: (args) => (args.index ? text(TAB_SUMMARY[args.action], { index: args.index }) : text(TABS_SUMMARY[args.action])),
    preview: (args) => ({ title: text('title'), fields: [{ label: text('action'), value: args.index ? `${args.action} ${args.index}` : args.action }] }),
    messages: {
      en: {
        ...BROWSER_MESSAGES.en,
        title: 'Browser tabs',
        action: 'Action',
        'summary.list': 'list',
        'summary.select': 'select',
        'summary.close': 'close',
        'summary.listTab': 'list {index}',
        'summary.selectTab': 'select {index}',
        'summary.closeTab': 'close {index}',
        'result.tabs': '{count} tab(s) open.', 'result.noTab': 'There is no tab {index}.' },
      'zh-CN': {
        ...BROWSER_MESSAGES['zh-CN'],
        title: '浏览器标签页',
        action: '操作',
        'summary.list': '列出',
        'summary.select': '切换',
        'summary.close': '关闭',
        'summary.listTab': '列出第 {index} 个',
        'summary.selectTab': '切换到第 {index} 个',
        'summary.closeTab': '关闭第 {index} 个',
        'result.tabs': '打开了 {count} 个标签页。', 'result.noTab': '没有第 {index} 个标签页。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        if (args.action !== 'list') {
          const page = session.pages[(args.index ?? 0) - 1]
          if (!page) return withDisplay(fail(`There is no tab ${args.index ?? '(no number given)'}; list them first.`), text('result.noTab', { index: args.index ?? 0 }))
          if (args.action === 'close') await page.close()
          else session.select((args.index ?? 1) - 1)
        }
        const pages = session.pages
        const lines = await Promise.all(
          pages.map(async (page, index) => `${index === session.currentIndex ? '*' : ' '} ${index + 1}. ${await page.title().catch(() => '')} — ${page.url()}`)
        )
        return withDisplay(ok(session.scrub(lines.join('\n') || 'No tabs are open.')), text('result.tabs', { count: pages.length }))
      })
  })
}

/** The summary of each action, as literal keys (the key-coverage test reads them). */
const TABS_SUMMARY = { list: 'summary.list', select: 'summary.select', close: 'summary.close' } as const
const TAB_SUMMARY = { list: 'summary.listTab', select: 'summary.selectTab', close: 'summary.closeTab' } as const
