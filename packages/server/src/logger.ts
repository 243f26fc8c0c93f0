import pino, { type Logger } from 'pino';
import { requestSerializer } from './auth/log-redaction.js';

/** Structured JSON logs; readable lines instead when a person is watching a terminal. */
export function createLogger(level: string, pretty = process.stdout.isTTY === true): Logger {
  return pino({
    level,
    base: { service: 'scrub-server' },
    serializers: { req: requestSerializer },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: !process.env.NO_COLOR, ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  });
}
