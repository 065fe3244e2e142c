/**
 * Why a send ended `not sent` or `unknown`, as message codes with parameters (docs/architecture.md,
 * "Texts from main"; docs/desktop.md, "Sending messages"): the task says which code and with what
 * values, the English sentence goes to the model, the log and `--json`, and the app and the CLI say
 * it in the person's language. Values read on screen, names and the person's own words are
 * parameters, shown as they are; an error from elsewhere is a parameter too (`{error}`).
 */

type Texts = { en: string; 'zh-CN': string }

const UNKNOWN_TAIL: Texts = { en: '; check the chat before sending again', 'zh-CN': '；再次发送前请先查看该会话' }
const pressed = (en: string, zh: string): Texts => ({ en: `the send key was pressed, ${en}${UNKNOWN_TAIL.en}`, 'zh-CN': `已按下发送键，${zh}${UNKNOWN_TAIL['zh-CN']}` })

export const SEND_REASONS = {
  // Before anything on screen is touched (ChatSender, send-limits.ts).
  noProfile: { en: 'no chat app profile "{app}" (known: {known})', 'zh-CN': '没有聊天应用配置“{app}”（已有：{known}）' },
  noPlatform: { en: "{app}'s profile has no settings for {os}", 'zh-CN': '{app} 的配置中没有适用于 {os} 的设置' },
  emptyChat: { en: 'the chat name is empty', 'zh-CN': '会话名称为空' },
  emptyText: { en: 'the text is empty', 'zh-CN': '消息文字为空' },
  disabled: {
    en: '{app} is not enabled for sending. The user can enable it in Settings → Chat apps, or with "deskclaw desktop enable {id}".',
    'zh-CN': '{app} 未启用发送。用户可以在“设置 → 聊天应用”中启用，或运行“deskclaw desktop enable {id}”。'
  },
  notAllowlisted: { en: '"{chat}" is not on {app}\'s allowlist ({allowlist}).', 'zh-CN': '“{chat}”不在 {app} 的允许名单中（{allowlist}）。' },
  rateInterval: {
    en: 'rate limit: one message per {seconds} s to "{chat}"; try again in {wait} s.',
    'zh-CN': '频率限制：发给“{chat}”的消息每 {seconds} 秒最多一条；请 {wait} 秒后再试。'
  },
  rateHourly: {
    en: 'rate limit: {perHour} messages per hour to "{chat}" already sent; try again in {wait} min.',
    'zh-CN': '频率限制：本小时已向“{chat}”发送 {perHour} 条消息；请 {wait} 分钟后再试。'
  },
  // Finding and opening the chat.
  notOpen: { en: '{app} is not open: no window is titled {titles}', 'zh-CN': '{app} 未打开：没有标题为 {titles} 的窗口' },
  cannotActivate: { en: 'could not bring {app} to the front: {error}', 'zh-CN': '无法把 {app} 切换到前台：{error}' },
  notInFront: { en: "{app}'s window did not come to the front", 'zh-CN': '{app} 的窗口没有切换到前台' },
  noResult: { en: 'no search result reads exactly "{chat}" (results: {results})', 'zh-CN': '没有搜索结果恰好是“{chat}”（结果：{results}）' },
  noResultAtAll: { en: 'no search result reads exactly "{chat}" (results: none)', 'zh-CN': '没有搜索结果恰好是“{chat}”（没有任何结果）' },
  ambiguousResults: { en: '{count} search results read exactly "{chat}"; the chat is ambiguous', 'zh-CN': '有 {count} 个搜索结果都是“{chat}”，无法确定是哪个会话' },
  resultDidNotOpen: {
    en: 'the search result did not open: nothing in the window changed after pressing {key}',
    'zh-CN': '搜索结果没有打开：按下 {key} 后窗口没有任何变化'
  },
  headerReads: { en: 'the chat header reads "{header}", not "{chat}"', 'zh-CN': '会话标题是“{header}”，不是“{chat}”' },
  resultDidNotOpenHeader: {
    en: 'the search result did not open (nothing changed after pressing {key}); the chat header reads "{header}", not "{chat}"',
    'zh-CN': '搜索结果没有打开（按下 {key} 后没有变化）；会话标题是“{header}”，不是“{chat}”'
  },
  listHasNoChat: { en: 'no chat in {app}\'s list is named exactly "{chat}"', 'zh-CN': '{app} 的会话列表中没有名称恰好是“{chat}”的会话' },
  listHasNoChatSimilar: {
    en: 'no chat in {app}\'s list is named exactly "{chat}" (similar: {similar})',
    'zh-CN': '{app} 的会话列表中没有名称恰好是“{chat}”的会话（相似：{similar}）'
  },
  listAmbiguous: { en: '{count} chats in {app}\'s list are named exactly "{chat}"; the chat is ambiguous', 'zh-CN': '{app} 的会话列表中有 {count} 个会话都叫“{chat}”，无法确定是哪个' },
  chatDidNotOpen: { en: '"{chat}" did not open ({tried}); the windows read {titles}', 'zh-CN': '“{chat}”没有打开（{tried}）；窗口标题为 {titles}' },
  chatDidNotOpenNoWindow: { en: '"{chat}" did not open ({tried}); the windows read nothing', 'zh-CN': '“{chat}”没有打开（{tried}）；没有读到任何窗口' },
  // The draft.
  pasteNotFound: {
    en: 'the pasted text did not appear in the window (the draft box was not found)',
    'zh-CN': '粘贴的文字没有出现在窗口中（没有找到输入框）'
  },
  entryNotSet: { en: 'the message entry could not be set: {error}', 'zh-CN': '无法设置输入框的文字：{error}' },
  entryReadsOther: { en: 'the message entry reads "{draft}" after setting the text, not the text', 'zh-CN': '设置文字后输入框内容是“{draft}”，不是要发送的文字' },
  // The approval, and what may have changed while it was open.
  notApproved: {
    en: 'not approved: {reason}; nothing was sent and the draft was put back as it was',
    'zh-CN': '未获批准：{reason}；没有发送任何内容，草稿已恢复原样'
  },
  draftChanged: { en: 'the draft changed while the approval was open (it reads "{draft}")', 'zh-CN': '等待批准期间草稿被改动了（现在是“{draft}”）' },
  noLongerOpen: { en: '"{chat}" is no longer the open chat', 'zh-CN': '“{chat}”已不是当前打开的会话' },
  windowNotInFront: { en: 'the window "{title}" did not come to the front', 'zh-CN': '窗口“{title}”没有切换到前台' },
  entryNotFocused: { en: 'the message entry could not be focused: {error}', 'zh-CN': '无法聚焦输入框：{error}' },
  // Ended from outside, or failed elsewhere.
  timedOut: { en: 'timed out after {seconds} s', 'zh-CN': '{seconds} 秒后超时' },
  stopped: { en: 'stopped', 'zh-CN': '已停止' },
  failed: { en: '{error}', 'zh-CN': '出错：{error}' },
  // After the send key: `unknown`, never retried.
  conversationUnchanged: pressed('but the conversation did not change after the send key', '但会话没有变化'),
  draftStillFull: pressed('but the draft still holds the text after the send key', '但输入框里仍是这段文字'),
  newestDiffers: pressed('but the newest message reads "{newest}", not the text', '但最新一条消息是“{newest}”，不是要发送的文字'),
  entryStillFull: pressed('but the message entry still reads "{draft}" after the send key', '但输入框里仍是“{draft}”'),
  conversationEnds: pressed('and the entry emptied, but the conversation ends "{tail}", not the text', '输入框已清空，但会话的结尾是“{tail}”，不是要发送的文字'),
  newestDiffersEntryEmptied: pressed('and the entry emptied, but the newest message reads "{newest}", not the text', '输入框已清空，但最新一条消息是“{newest}”，不是要发送的文字'),
  timedOutAfterSend: pressed('then timed out after {seconds} s', '随后在 {seconds} 秒后超时'),
  stoppedAfterSend: pressed('then stopped', '随后被停止'),
  failedAfterSend: pressed('then {error}', '随后出错：{error}')
} satisfies Record<string, Texts>

export type SendReasonCode = keyof typeof SEND_REASONS
export type SendReasonParams = Record<string, string | number>

/** Why a send did not end `sent`: a code of SEND_REASONS and the values its texts name. */
export interface SendReason {
  code: SendReasonCode
  params: SendReasonParams
}

export function sendReason(code: SendReasonCode, params: SendReasonParams = {}): SendReason {
  return { code, params }
}

/** The reason as a sentence in `language` (English for the model, the log and --json). */
export function reasonText(reason: SendReason, language: 'en' | 'zh-CN' = 'en'): string {
  const template = SEND_REASONS[reason.code][language]
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(reason.params, name) ? String(reason.params[name]) : whole))
}

/** A failure before the send key: nothing was sent. Its message is the English sentence. */
export class NotSent extends Error {
  constructor(readonly why: SendReason) {
    super(reasonText(why))
  }
}

/** After the send key a failure is `unknown`: the code that says "the key was pressed, then …". */
export function afterSendKey(why: SendReason): SendReason {
  if (why.code === 'timedOut') return sendReason('timedOutAfterSend', why.params)
  if (why.code === 'stopped') return sendReason('stoppedAfterSend')
  return sendReason('failedAfterSend', { error: reasonText(why) })
}

/** Quoted names as a list for a parameter: `"a", "b"`. */
export function quotedList(names: string[]): string {
  return names.map((n) => `"${n}"`).join(', ')
}
