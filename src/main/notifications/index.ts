/** Notices for the person at this machine (docs/tools.md, "Notifications"): the service and the native notifier's interface. */
export { Notifications, type NativeNotifier, type NoticeDelivery, type NoticeInput, type NotificationService, type NotificationsOptions } from './notification-service'
