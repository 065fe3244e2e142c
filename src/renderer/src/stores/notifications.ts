/**
 * Notices from main in the browser UI (docs/tools.md, "Notifications"): shown with the
 * Notifications API, asking for permission on first use; in-app when it is refused or missing.
 * In the Electron window main shows them natively, so the window shows nothing more.
 */
import type { Notice } from '../../../shared/bridge'
import { useNoticesStore } from './notices'

export async function showNotice(notice: Notice): Promise<void> {
  if (window.deskclaw) return
  const line = notice.body ? `${notice.title} — ${notice.body}` : notice.title
  const api = typeof Notification === 'undefined' ? null : Notification
  if (!api) return useNoticesStore.getState().push(line, 'info')
  let permission = api.permission
  if (permission === 'default') {
    try {
      permission = await api.requestPermission()
    } catch {
      permission = 'denied'
    }
  }
  if (permission !== 'granted') return useNoticesStore.getState().push(line, 'info')
  new api(notice.title, { body: notice.body, tag: notice.id })
}
