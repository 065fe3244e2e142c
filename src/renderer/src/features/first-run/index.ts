export { FirstRunSetup } from './FirstRunSetup'
