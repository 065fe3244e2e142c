import { Icon, type IconProps } from '../../common'

export const PaperclipIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />
  </Icon>
)
