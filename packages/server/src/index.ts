// Account operations for operators' scripts and the benchmarks: the HTTP API is the product's interface.
export { applyLedgerEntry, ledgerTotals } from './account/ledger.js';
export { ensureProfile } from './account/profiles.js';
export { type AppOptions, buildApp } from './app.js';
export { rotateApiKey } from './auth/api-keys.js';
export { loadConfig, type ServerConfig } from './config/config.js';
export { LOCAL_KEYS } from './config/payment-settings.js';
export { SCREENS_ON_API_PATHS } from './dashboard/serve-dashboard.js';
export { ApiError } from './errors/api-error.js';
export { ConfigError } from './errors/config-error.js';
export { planCatalogue } from './plans/catalogue.js';
export { type RunningServer, startServer } from './server.js';
export {
  type DatabaseHandle,
  type DatabaseTarget,
  migrateToLatest,
  openDatabase,
} from './storage/database.js';
