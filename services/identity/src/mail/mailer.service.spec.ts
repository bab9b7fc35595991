import { Logger } from '@nestjs/common';
import type { IdentityEnv } from '../config/env.dto';
import { MailerService } from './mailer.service';

const mail = { to: 'pat@example.org', subject: 'Reset your password', text: 'Follow http://beacon.test/verify?token=abc', html: '<p>…</p>' };

describe('MailerService without SMTP_URL', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes the whole mail, link included, to the log in development', async () => {
    const logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    await new MailerService({ NODE_ENV: 'development' } as IdentityEnv).send(mail);
    expect(logged).toHaveBeenCalledTimes(1);
    const [line] = logged.mock.calls[0] as [string];
    expect(line).toContain('pat@example.org');
    expect(line).toContain('Reset your password');
    expect(line).toContain('http://beacon.test/verify?token=abc');
  });

  it('never logs the link in production, only that the mail was not sent', async () => {
    const logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const failed = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await new MailerService({ NODE_ENV: 'production' } as IdentityEnv).send(mail);
    expect(logged).not.toHaveBeenCalled();
    expect(failed).toHaveBeenCalledWith('mail "Reset your password" not sent: SMTP_URL is not set');
  });
});
