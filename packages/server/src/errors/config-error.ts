/** A setting that cannot be used: the service refuses to start and says which and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
