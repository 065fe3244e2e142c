import { Icon, type IconProps } from '../common'

/** A bookmark: what DeskClaw keeps (the Memory panel's button). */
export const MemoryIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 3h12v18l-6-4-6 4z" />
  </Icon>
)
