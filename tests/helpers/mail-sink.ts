// A real mail server on loopback for tests (smtp-server as the sink, each message parsed with
// mailparser): it keeps what it is given, and can refuse the next few messages as a busy server
// would (451), so a test sees what the portal truly sent.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string;
  mail: ParsedMail;
}

export class MailSink {
  readonly received: Received[] = [];
  refuseNext = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const to = session.envelope.rcptTo.map((r) => r.address).join(',');
      simpleParser(stream)
        .then((mail) => {
          if (this.refuseNext > 0) {
            this.refuseNext--;
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(error);
            return;
          }
          this.received.push({ to, mail });
          callback();
        })
        .catch(callback);
    },
  });
  port = 0;

  /** SMTP_URL of this sink, for the app's environment. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): Received[] {
    return this.received.filter((r) => r.to === address);
  }

  clear(): void {
    this.received.length = 0;
    this.refuseNext = 0;
  }
}
