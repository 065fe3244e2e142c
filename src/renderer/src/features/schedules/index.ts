export { SchedulesPanel } from './SchedulesPanel'
