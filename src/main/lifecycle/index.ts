/**
 * The lifecycle every app service shares (docs/architecture.md, "Adding a service"): the
 * `AppService` hooks the composition root calls, and `changes()` for settings hooks. It imports
 * nothing from src/main, so every room that offers a service can implement it without importing app/.
 */
export { changes, type AppService } from './app-service'
