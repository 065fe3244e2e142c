/** The sidebar toggle's icon: a window with its left panel. */
import { Icon, type IconProps } from '../common'

export const SidebarIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M9 4v16" />
  </Icon>
)
