/** The Devices panel's own icons, in the shared frame (features/common/icons). */
import type { ReactNode } from 'react'
import { Icon as FrameIcon, type IconProps } from '../common'

const Icon = ({ size = 16, children, ...rest }: IconProps & { children: ReactNode }) => (
  <FrameIcon size={size} {...rest}>
    {children}
  </FrameIcon>
)

/** A chip: the sidebar's Devices button. */
export const ChipIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="6" y="6" width="12" height="12" rx="2" />
    <path d="M9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4" />
  </Icon>
)

/** A terminal prompt: a row's Console button. */
export const TerminalIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 17l6-5-6-5M12 19h8" />
  </Icon>
)
