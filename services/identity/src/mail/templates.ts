import type { Mail } from './mailer.service';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function mail(to: string, subject: string, intro: string, action: string, link: string, outro: string): Mail {
  return {
    to,
    subject,
    text: `${intro}\n\n${action}:\n${link}\n\n${outro}\n`,
    html: `<p>${escape(intro)}</p><p><a href="${escape(link)}">${escape(action)}</a></p><p>${escape(outro)}</p>`,
  };
}

export const confirmationMail = (to: string, link: string) =>
  mail(
    to,
    'Confirm your Beacon account',
    'Welcome to Beacon. Please confirm your email address.',
    'Confirm your email',
    link,
    'If you did not create an account, you can ignore this email.',
  );

export const recoveryMail = (to: string, link: string) =>
  mail(
    to,
    'Reset your Beacon password',
    'Someone asked to reset the password of your Beacon account.',
    'Reset your password',
    link,
    'The link works once and expires within an hour. If you did not ask for this, you can ignore this email.',
  );

export const emailChangeMail = (to: string, link: string) =>
  mail(
    to,
    'Confirm your new email address',
    'Please confirm this address for your Beacon account.',
    'Confirm the new address',
    link,
    'If you did not ask for this change, you can ignore this email.',
  );
