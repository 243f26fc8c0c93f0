export { type AppOptions, buildApp } from './app.js';
export { ConfigError, loadConfig, type ServerConfig } from './config.js';
export { ApiError } from './http/api-error.js';
export { planCatalogue } from './plans/catalogue.js';
export { type RunningServer, startServer } from './server.js';
export {
  type DatabaseHandle,
  type DatabaseTarget,
  migrateToLatest,
  openDatabase,
} from './storage/database.js';
