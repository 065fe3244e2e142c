/** Desktop control: the banner shown while a run holds the keyboard and mouse, and its stop shortcut. */
export { DesktopBanner } from './DesktopBanner'
export { formatAccelerator, matchesAccelerator, parseAccelerator, shortcutLabel, type Accelerator } from '../../../../shared/accelerator'
