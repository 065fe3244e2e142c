import { Notification } from 'electron'
import type { Notice } from '../../shared'
import type { NativeNotifier } from '../notifications'

/**
 * Notices as the system's notifications (docs/tools.md, "Notifications"). A click opens the
 * notice's conversation in the main window (`onOpen`).
 */
export function electronNotifier(onOpen: (notice: Notice) => void): NativeNotifier {
  return {
    supported: () => Notification.isSupported(),
    show(notice) {
      const notification = new Notification({ title: notice.title, body: notice.body })
      notification.on('click', () => onOpen(notice))
      notification.show()
    }
  }
}
