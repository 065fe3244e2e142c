/** The icons of the message-version actions (Regenerate, Edit), drawn in the shared stroke frame. */
import { Icon, type IconProps } from '../common'

export const RegenerateIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M20 11a8 8 0 0 0-14.6-4.5L3 9" />
    <path d="M3 4v5h5" />
    <path d="M4 13a8 8 0 0 0 14.6 4.5L21 15" />
    <path d="M21 20v-5h-5" />
  </Icon>
)

export const EditIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 20h9" />
    <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
  </Icon>
)
