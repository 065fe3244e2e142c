/** The sidebar's own stroke icons, in the shared frame (features/common/icons). */
import type { ReactNode } from 'react'
import { Icon as FrameIcon, type IconProps } from '../common'

const Icon = ({ size = 15, children, ...rest }: IconProps & { children: ReactNode }) => (
  <FrameIcon size={size} {...rest}>
    {children}
  </FrameIcon>
)

export const SearchIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  </Icon>
)
export const PinIcon = (p: IconProps & { filled?: boolean }) => {
  const { filled, ...rest } = p
  return (
    <Icon {...rest}>
      <path d="M12 17v5" />
      <path d="M9 3h6l-1 5 3 3v2H7v-2l3-3z" fill={filled ? 'currentColor' : 'none'} />
    </Icon>
  )
}
export const PencilIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 20h9" />
    <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
  </Icon>
)
export const MoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="5" cy="12" r="1.2" fill="currentColor" />
    <circle cx="12" cy="12" r="1.2" fill="currentColor" />
    <circle cx="19" cy="12" r="1.2" fill="currentColor" />
  </Icon>
)
export const DownloadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3v12M7 10l5 5 5-5M5 21h14" />
  </Icon>
)
