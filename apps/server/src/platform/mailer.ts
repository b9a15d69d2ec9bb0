// Outgoing e-mail: SMTP when SMTP_URL is set, else .eml files in DATA_DIR/outbox (and the log).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The one link the e-mail is about; printed in the log in development when mail goes to the outbox. */
  link?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Development only: the link of an outbox e-mail is printed on a line of its own, so it is one click away. */
  printLinks: boolean;
  /** Where such a line goes (the terminal). */
  print?: (text: string) => void;
}): Mailer {
  const print = options.print ?? ((text: string) => void process.stdout.write(text));
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    mode: 'outbox',
    async send(mail) {
      // The link also goes in a header: the body may be quoted-printable and break long lines.
      const headers: Record<string, string> = mail.link ? { 'X-Parla-Link': mail.link } : {};
      const info = await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, headers });
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await writeFile(file, (info.message as Buffer).toString('utf8').replace(/\r\n/g, '\n'));
      // Links are keys: outside development they stay in the file, never in the log. In
      // development the link is printed apart from the JSON log lines, to be clicked (issue 37).
      options.log.info({ subject: mail.subject, file }, 'e-mail written to the outbox');
      if (options.printLinks && mail.link) print(`\n  E-mail to ${mail.to}: ${mail.subject}\n  ${mail.link}\n\n`);
    },
  };
}
