import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/config.js';
import type { DatabaseHandle } from '../storage/database.js';
import { Mailer } from './mailer.js';

/** The app's mailer; it finishes deliveries in flight when the app closes. */
export function setUpMail(
  app: FastifyInstance,
  config: ServerConfig,
  database: DatabaseHandle,
  logger: Logger | false,
): Mailer {
  const mailer = new Mailer({
    db: database.db,
    logger,
    from: config.mail.from,
    smtpUrl: config.mail.smtpUrl,
  });
  app.addHook('onClose', () => mailer.close());
  return mailer;
}
