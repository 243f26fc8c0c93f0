export type CodePurpose = 'confirm_sign_up' | 'reset_password';

/** A code e-mail, as the pool hands it to its mailer. */
export interface CodeMail {
  kind: CodePurpose;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The code itself: a mailer that logs or keeps mail should leave it out. */
  secret: string;
}

/** Where the pool's e-mails go: the host's mail service, or anything that takes a `CodeMail`. */
export interface CodeMailer {
  send(mail: CodeMail): Promise<unknown>;
}

const wording: Record<CodePurpose, { subject: string; why: string; ignore: string }> = {
  confirm_sign_up: {
    subject: 'Your Scrub verification code',
    why: 'Enter this code to confirm your e-mail address and finish creating your Scrub account.',
    ignore: 'If you did not sign up for Scrub, ignore this message: no account is created without the code.',
  },
  reset_password: {
    subject: 'Your Scrub password reset code',
    why: 'Enter this code with your new password to reset your Scrub password.',
    ignore: 'If you did not ask to reset your password, ignore this message: your password stays as it is.',
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function describeDuration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/**
 * A code e-mail. The code stands in the subject and on a line of its own, after "code: ", so a
 * person sees it at a glance and a script finds it with /code: (\d{6})/.
 */
export function codeMail(
  purpose: CodePurpose,
  to: string,
  name: string | undefined,
  code: string,
  validSeconds: number,
): CodeMail {
  const w = wording[purpose];
  const greeting = name?.trim() ? `Hello ${name.trim()},` : 'Hello,';
  const lasts = `The code expires in ${describeDuration(validSeconds)}.`;
  return {
    kind: purpose,
    to,
    secret: code,
    subject: `${w.subject}: ${code}`,
    text: [`${w.subject}: ${code}`, '', greeting, '', w.why, lasts, '', w.ignore, ''].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(w.why)}</p>`,
      `<p style="font-family:monospace;font-size:28px;letter-spacing:6px;font-weight:bold">${code}</p>`,
      `<p>${escapeHtml(lasts)}</p>`,
      `<p style="color:#666">${escapeHtml(w.ignore)}</p>`,
    ].join('\n'),
  };
}
