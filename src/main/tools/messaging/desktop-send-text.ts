import { z } from 'zod'
import { ChatWatermarkSchema, CHAT_APP_ID_PATTERN } from '../../../shared'
import { SEND_REASONS, type ChatSender, type SendConfirmation, type SendReasonCode, type SendStep } from '../../chat-apps'
import { defineTool, fail, ok, text, withDisplay, type ToolContext, type ToolOutput } from '../define-tool'
import { trusted } from '../../provenance'

export interface MessagingToolServices {
  sender: ChatSender
}

/**
 * desktop_send_text (docs/desktop.md, "Sending messages"): one message into one chat of a desktop
 * chat app, verified on screen at every step. It asks in supervised mode every time, after the chat
 * is verified and the text pasted, so the question shows what will really be sent.
 */
export function createSendTextTool(services: MessagingToolServices) {
  return defineTool({
    name: 'desktop_send_text',
    repeat: 'may-differ',
    description:
      'Send one text message to one chat (a person or a group) in a desktop chat app such as WeChat (app "weixin"), WeCom, DingTalk, Feishu, Telegram or Slack. ' +
      'The chat is found by its exact name through the app\'s search and verified on screen; the text is pasted and sent once. ' +
      'Result "sent", "not sent: why" (nothing was sent; fix the cause before trying again) or "unknown: why" (the send key was pressed but the message could not be verified: never send it again without asking the user). ' +
      'The user must have enabled the app in Settings; messages to one chat are rate-limited.',
    shortDescription: 'Send "text" to the chat "to" in the desktop chat "app" once, verified on screen; "unknown" results must never be sent again without asking.',
    category: 'messaging',
    access: 'execute',
    source: trusted,
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'send_text', destination: `${args.app}:${args.to}` }) },
    input: z.object({
      app: z.string().regex(CHAT_APP_ID_PATTERN).describe('The chat app profile id: weixin, wecom, dingtalk, feishu, telegram, slack, or a user profile'),
      to: z.string().trim().min(1).max(200).describe('The chat\'s exact name as the app shows it'),
      text: z.string().min(1).max(10_000).describe('The message, exactly as it should arrive'),
      watermark: ChatWatermarkSchema.optional().describe('Overrides the setting: suffix, zero-width (an invisible marker) or none')
    }),
    subjectKind: 'chat',
    subject: (args) => ({ value: `${args.app}:${args.to}`, arg: 'to' }),
    confirmsDuringRun: true,
    summary: (args) => `${args.app} → ${args.to}: ${args.text.slice(0, 50)}`,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('app'), value: args.app },
        { label: text('to'), value: args.to, arg: 'to' },
        { label: text('text'), value: args.text, code: true, arg: 'text' }
      ]
    }),
    messages: {
      en: {
        title: 'Send a message',
        app: 'App',
        to: 'To (verified on screen)',
        text: 'Text, exactly as it will be sent',
        screen: 'The chat and the draft, as on screen now',
        'result.sent': 'Sent to "{chat}" in {app} and verified on screen.',
        'result.notSent': 'Not sent: nothing went to "{chat}" in {app}. The output below says why.',
        'result.unknown': 'Unknown: the send key was pressed in {app}, but the message to "{chat}" could not be verified. Check the chat before sending again.',
        'step.noResults': '(no results)',
        'step.resultOf': '"{text}" (result {row} of {total})',
        'step.activatedTree': '"{title}" (accessibility tree)',
        'step.namedItems': '{count} item(s) named "{target}" in the chat list',
        'step.namedItemsSimilar': '{count} item(s) named "{target}" in the chat list; similar: {similar}',
        'step.setAndReadBack': '{text} (set and read back exactly)',
        ...reasonMessages('en')
      },
      'zh-CN': {
        title: '发送消息',
        app: '应用',
        to: '发给（已在屏幕上核对）',
        text: '文字（将原样发送）',
        screen: '当前屏幕上的会话和草稿',
        'result.sent': '已发送给 {app} 中的“{chat}”，并已在屏幕上核对。',
        'result.notSent': '未发送：没有向 {app} 中的“{chat}”发送任何内容，原因见下方输出。',
        'result.unknown': '未知：已在 {app} 中按下发送键，但无法核对发给“{chat}”的消息。再次发送前请先查看该会话。',
        'step.noResults': '（没有结果）',
        'step.resultOf': '“{text}”（第 {row} 个结果，共 {total} 个）',
        'step.activatedTree': '“{title}”（无障碍树）',
        'step.namedItems': '聊天列表中有 {count} 项名为“{target}”',
        'step.namedItemsSimilar': '聊天列表中有 {count} 项名为“{target}”；相似：{similar}',
        'step.setAndReadBack': '{text}（已写入并原样读回）',
        ...reasonMessages('zh-CN')
      }
    },
    run: async (args, ctx) => {
      const outcome = await services.sender.send({
        app: args.app,
        to: args.to,
        text: args.text,
        watermark: args.watermark,
        runId: ctx.runId,
        conversationId: ctx.conversationId,
        signal: ctx.signal,
        confirm: (confirmation) => confirmInRun(ctx, confirmation),
        onStep: (step) => reportStep(ctx, step)
      })
      return describeOutcome(outcome)
    }
  })
}

function confirmInRun(ctx: ToolContext, c: SendConfirmation) {
  if (!ctx.confirm) return Promise.resolve({ allowed: false as const, reason: 'nobody can be asked here' })
  return ctx.confirm({
    title: text('title'),
    fields: [
      { label: text('app'), value: `${c.app.name.en} (${c.app.name['zh-CN']})` },
      { label: text('to'), value: c.target },
      { label: text('text'), value: c.text, code: true }
    ],
    image: { mediaType: 'image/png', data: Buffer.from(c.image.png).toString('base64'), alt: text('screen') }
  })
}

function reportStep(ctx: ToolContext, step: SendStep): void {
  ctx.onProgress?.({
    step: step.step,
    ok: step.ok,
    detail: step.detail,
    // A failed step says its reason in the UI's language; a step with words of its own, its text.
    ...(step.detailText ? { detailText: step.detailText } : step.why ? { detailText: text(`reason.${step.why.code}`, step.why.params) } : {}),
    ...(step.image ? { image: { kind: 'image', mediaType: 'image/png', data: step.image.png, width: step.image.width, height: step.image.height, name: `${step.step}.png` } } : {})
  })
}

/**
 * The result line for each reason (src/main/chat-apps/send/send-reasons.ts): `notSent.<code>` and
 * `unknown.<code>`, the status in front of the reason, in both languages.
 */
function reasonMessages(language: 'en' | 'zh-CN'): Record<string, string> {
  const status = {
    en: { notSent: 'Not sent: ', unknown: 'Unknown: ' },
    'zh-CN': { notSent: '未发送：', unknown: '未知：' }
  }[language]
  return Object.fromEntries(
    (Object.keys(SEND_REASONS) as SendReasonCode[]).flatMap((code) => {
      const reason = SEND_REASONS[code][language]
      const sentence = language === 'en' ? reason.charAt(0).toUpperCase() + reason.slice(1) : reason
      return [
        [`notSent.${code}`, status.notSent + sentence],
        [`unknown.${code}`, status.unknown + sentence],
        // A failed step's detail in the timeline: the reason alone.
        [`reason.${code}`, sentence]
      ]
    })
  )
}

function describeOutcome(outcome: Awaited<ReturnType<ChatSender['send']>>): ToolOutput {
  const where = `"${outcome.target}" in ${outcome.appName}`
  const params = { chat: outcome.target, app: outcome.appName }
  // The reason itself as the result line, when the task gave its code.
  const why = outcome.why
  const line = (status: 'notSent' | 'unknown', fallback: string) => (why ? text(`${status}.${why.code}`, why.params) : text(fallback, params))
  switch (outcome.status) {
    case 'sent':
      return withDisplay(ok(`sent to ${where} and verified on screen: ${JSON.stringify(outcome.text)}`), text('result.sent', params))
    case 'not_sent':
      return withDisplay(fail(`not sent: ${outcome.reason}. Nothing was sent to ${where}.`), line('notSent', 'result.notSent'))
    case 'unknown':
      return withDisplay(
        fail(`unknown: ${outcome.reason}. Do not send this message again without asking the user to check ${where}.`),
        line('unknown', 'result.unknown')
      )
  }
}
