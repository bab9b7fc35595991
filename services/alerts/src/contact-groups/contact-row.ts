import { isEmail } from 'class-validator';
import {
  CONTACT_GROUP_LIMITS,
  DEFAULT_LANGUAGE,
  isLanguage,
  Language,
  LANGUAGE_LABELS,
  SUPPORTED_LANGUAGES,
  type ContactRowInput,
  type ContactRowProblemCode,
} from '@beacon/contracts';
import { normalizeNumber } from '../receipts/replies.service';
import { E164 } from '../settings/twilio-connection';

/** An external contact as it is kept: the phone in E.164, the e-mail trimmed (matched regardless of case). */
export interface Contact {
  name: string;
  phone: string | null;
  email: string | null;
  language: Language;
}

export interface RowProblem {
  code: ContactRowProblemCode;
  message: string;
}

export type CheckedRow = { contact: Contact } | { problem: RowProblem };

/** Dashes a spreadsheet or a word processor puts in numbers (hyphen, non-breaking hyphen, figure, en and em dashes). */
const UNICODE_DASHES = /[\u2010-\u2015\u2212]/g;

/**
 * A phone number in E.164 (a plus, the country code, at most 15 digits), or null when it cannot be one. Separators
 * people write are dropped (spaces, dots, dashes, brackets, as the receipts' normalizeNumber does for inbound numbers),
 * and a leading 00, the international prefix of most of the world, is read as the plus. A number without either is
 * refused rather than guessed: it names no country.
 */
export function normalisePhone(raw: string): string | null {
  let n = normalizeNumber(raw.replace(UNICODE_DASHES, '-'));
  if (n.startsWith('00')) n = `+${n.slice(2)}`;
  return E164.test(n) ? n : null;
}

/** The e-mail as kept (trimmed), or null when it is not an address. */
export function normaliseEmail(raw: string): string | null {
  const email = raw.trim();
  return isEmail(email) ? email : null;
}

/** The key two e-mails are the same person by. */
export const emailKey = (email: string) => email.toLowerCase();

/** Lower case without accents: "Español" and "espanol" are the same name. */
const folded = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/** Each way a spreadsheet may name a language: its code, its English name, its own name, the console's label. */
const LANGUAGE_NAMES: ReadonlyMap<string, Language> = new Map(
  SUPPORTED_LANGUAGES.flatMap((code) => {
    const label = LANGUAGE_LABELS[code];
    const [english, own] = [label.replace(/\s*\(.*\)$/, ''), /\((.*)\)/.exec(label)?.[1]];
    return [code, label, english, own].filter((name): name is string => !!name).map((name) => [folded(name), code] as const);
  }),
);

/** The supported language a cell names (a code such as es or es-MX, a name such as Spanish or Español); English when blank. */
export function parseLanguage(raw: string | undefined): Language | null {
  const text = folded(raw ?? '');
  if (!text) return DEFAULT_LANGUAGE;
  const primary = text.split(/[-_]/)[0];
  if (/^[a-z]{2}([-_][a-z0-9]+)*$/.test(text) && isLanguage(primary)) return primary;
  return LANGUAGE_NAMES.get(text) ?? null;
}

const LANGUAGE_LIST = SUPPORTED_LANGUAGES.map((l) => `${LANGUAGE_LABELS[l]} (${l})`).join(', ');

/**
 * One member row (a CSV line, or the add-member form) checked and normalised: the first problem it has, or the contact.
 * Blank cells are absent ones; a name is needed, and a phone or an e-mail to reach the person by.
 */
export function checkContactRow(row: ContactRowInput): CheckedRow {
  const name = row.name?.trim() ?? '';
  const phoneText = row.phone?.trim() ?? '';
  const emailText = row.email?.trim() ?? '';
  if (!name) return problem('missing_name', 'A name is required');
  if (name.length > CONTACT_GROUP_LIMITS.nameMax) {
    return problem('name_too_long', `The name must be at most ${CONTACT_GROUP_LIMITS.nameMax} characters (it has ${name.length})`);
  }
  if (!phoneText && !emailText) return problem('missing_contact', 'A phone number or an e-mail address is required to reach this person');
  const phone = phoneText ? normalisePhone(phoneText) : null;
  if (phoneText && !phone) {
    return problem('invalid_phone', `"${phoneText}" is not a phone number with its country code: write it in E.164 form, e.g. +16025551234`);
  }
  const email = emailText ? normaliseEmail(emailText) : null;
  if (emailText && !email) return problem('invalid_email', `"${emailText}" is not an e-mail address`);
  const language = parseLanguage(row.language);
  if (!language) return problem('invalid_language', `"${row.language?.trim()}" is not a supported language: use one of ${LANGUAGE_LIST}`);
  return { contact: { name, phone, email, language } };
}

const problem = (code: ContactRowProblemCode, message: string): CheckedRow => ({ problem: { code, message } });
