/** Each failure reason in words, English and Simplified Chinese (docs/desktop.md, "Accessibility backends"). */
import type { AccessibilityFailure, AccessibilityFailureReason } from './types'

export type AccessibilityLanguage = 'en' | 'zh-CN'

export const ACCESSIBILITY_FAILURE_TEXT: Record<AccessibilityLanguage, Record<AccessibilityFailureReason, string>> = {
  en: {
    unsupported_os: 'Reading windows through accessibility is not implemented on this OS yet.',
    no_session_bus: 'There is no D-Bus session bus to reach the accessibility service.',
    atspi_missing: 'The accessibility service (AT-SPI) is not running or not installed.',
    atspi_disabled: 'Accessibility (AT-SPI) is turned off for applications.',
    no_tree: 'The application exposes no accessibility tree.',
    not_found: 'No accessible window or widget matches.',
    ambiguous: 'More than one window matches; give the exact title.',
    gone: 'The widget is gone (the window closed or changed).',
    not_supported_by_widget: 'The widget does not support this.',
    deadline: 'The application did not answer in time.',
    failed: 'The accessibility call failed.'
  },
  'zh-CN': {
    unsupported_os: '此操作系统暂未实现通过无障碍接口读取窗口。',
    no_session_bus: '没有可用的 D-Bus 会话总线，无法连接无障碍服务。',
    atspi_missing: '无障碍服务（AT-SPI）未运行或未安装。',
    atspi_disabled: '应用程序的无障碍功能（AT-SPI）已关闭。',
    no_tree: '该应用程序没有提供无障碍树。',
    not_found: '没有匹配的无障碍窗口或控件。',
    ambiguous: '有多个窗口匹配，请给出完整标题。',
    gone: '该控件已不存在（窗口已关闭或已变化）。',
    not_supported_by_widget: '该控件不支持此操作。',
    deadline: '应用程序未能及时响应。',
    failed: '无障碍调用失败。'
  }
}

/** One line: the sentence, then what the other side said (untranslated). */
export function describeAccessibilityFailure(failure: AccessibilityFailure, language: AccessibilityLanguage = 'en'): string {
  const sentence = ACCESSIBILITY_FAILURE_TEXT[language][failure.reason]
  return failure.detail ? `${sentence} (${failure.detail})` : sentence
}
