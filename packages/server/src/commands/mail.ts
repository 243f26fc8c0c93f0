import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { runLocalOperation } from '../local-control/local-control.js';
import type { StoredMail } from '../mail/mailer.js';
import { readOutboxOperation } from '../mail/outbox-operation.js';
import { CommandError } from './handle-error.js';

export interface MailCommandIo {
  config(): ServerConfig;
  out(text: string): void;
  err(text: string): void;
}

const defaultIo: MailCommandIo = {
  config: () => loadConfig(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

interface MailOptions {
  to?: string;
  last?: boolean;
  limit: number;
  json?: boolean;
}

function count(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 10_000) throw new InvalidArgumentError('a number from 1 to 10000');
  return n;
}

const asJson = (mail: StoredMail) => ({
  id: mail.id,
  kind: mail.kind,
  to: mail.to_address,
  from: mail.from_address,
  subject: mail.subject,
  text: mail.text_body,
  html: mail.html_body,
  created_at: mail.created_at.toISOString(),
  delivery: mail.delivery,
  delivery_error: mail.delivery_error,
  sent_at: mail.sent_at?.toISOString() ?? null,
});

function asText(mail: StoredMail): string {
  const when = mail.created_at
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const delivery = mail.delivery_error ? `${mail.delivery}: ${mail.delivery_error}` : mail.delivery;
  return [
    `#${mail.id}  ${when}  ${mail.kind}  (${delivery})`,
    `To:      ${mail.to_address}`,
    `From:    ${mail.from_address}`,
    `Subject: ${mail.subject}`,
    '',
    mail.text_body.trimEnd(),
    '',
  ].join('\n');
}

/** `scrub-server mail [--to EMAIL] [--last] [--limit N] [--json]`: what the service has e-mailed. */
export function mailCommand(io: MailCommandIo = defaultIo): Command {
  return new Command('mail')
    .description('Print the e-mail the service has sent (verification codes, notices), oldest first')
    .option('--to <email>', 'only mail to this address (any case)')
    .option('--last', 'only the newest mail; fails (exit 1) when there is none yet')
    .option('--limit <n>', 'at most this many of the newest mails', count, 20)
    .option('--json', 'print JSON: an array, or one object with --last')
    .action(async (options: MailOptions) => {
      const config = io.config();
      // Through the running server when it holds the embedded database.
      const mails = await runLocalOperation(config, readOutboxOperation, {
        to: options.to,
        limit: options.last ? 1 : options.limit,
      });
      const whom = options.to ? ` to ${options.to}` : '';
      io.err(
        config.mail.smtpUrl
          ? 'Mail goes out through SMTP: the outbox keeps a record of it, without verification and reset codes.\n'
          : 'No SMTP server is set (the embedded setup): the outbox is the delivery, so it keeps verification and reset codes readable. With SCRUB_SMTP_URL set, mail is sent and the outbox keeps it without codes.\n',
      );
      if (options.last) {
        const [mail] = mails;
        if (!mail) throw new CommandError(`No mail${whom} in the outbox yet.`, 1, 'no_mail');
        io.out(options.json ? `${JSON.stringify(asJson(mail), null, 2)}\n` : asText(mail));
        return;
      }
      if (options.json) {
        io.out(`${JSON.stringify(mails.map(asJson), null, 2)}\n`);
        return;
      }
      if (mails.length === 0) io.err(`No mail${whom} in the outbox.\n`);
      io.out(mails.map(asText).join('\n'));
    });
}
