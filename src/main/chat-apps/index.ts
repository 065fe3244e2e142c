/**
 * Desktop chat apps as a product (docs/desktop.md, "Sending messages"): the send-text task with its
 * two ways (the accessibility tree, the screen), its limits, reasons, queue and watermark. Built on
 * the desktop operator (`../desktop`), which never imports this room.
 */
export * from './profiles'
export * from './send'
export * from './learn'
