import type { CodeMail, CodeMailer } from './code-mail.js';

/** A mailer that keeps the pool's mail in memory (and may print it): for a pool run on its own. */
export class MailBox implements CodeMailer {
  readonly sent: CodeMail[] = [];

  constructor(private readonly print: ((line: string) => void) | null = null) {}

  async send(mail: CodeMail): Promise<void> {
    this.sent.push(mail);
    this.print?.(`mail to ${mail.to}: ${mail.subject}`);
  }

  /** The code of the newest mail to this address, or null. */
  latestCode(to: string): string | null {
    const mail = this.sent.findLast((m) => m.to.toLowerCase() === to.toLowerCase());
    return mail?.secret ?? null;
  }
}
