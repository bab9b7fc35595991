import type { ContactImportRejectedRow, ContactRowInput } from '@beacon/contracts';
import type { ContactCsvRow } from './contact-csv';
import { checkContactRow, Contact, emailKey } from './contact-row';

/** An external contact of the group as it is now. */
export interface StoredContact extends Contact {
  id: string;
}

/** What confirming an import does, worked out from the file and the group's contacts when it was previewed. */
export interface ImportPlan {
  create: Contact[];
  /** Each contact changed, as it will be. */
  update: StoredContact[];
  unchanged: number;
  rejected: ContactImportRejectedRow[];
}

/** What a preview's token confirms: the plan less the rejected rows, which only the preview shows. */
export interface ImportChanges {
  create: Contact[];
  update: StoredContact[];
  unchanged: number;
  rejected: number;
}

/** A row that passed its checks, with the later rows merged into it. */
interface Entry {
  line: number;
  values: ContactCsvRow['values'];
  contact: Contact;
  /** The language cell was blank: an existing member keeps theirs. */
  languageBlank: boolean;
}

/**
 * The import of `rows` into a group whose external contacts are `stored`. A person is known by their phone number or
 * their e-mail (normalised; e-mail regardless of case):
 * - a row that fails its checks is rejected with the reason;
 * - a row naming someone an earlier row named is merged into that one (which takes the phone or e-mail it lacked) and
 *   reported as duplicate_in_file;
 * - a row naming no member is created; one naming one member updates them when its name, language (a blank language
 *   keeps theirs), phone or e-mail (a blank one keeps theirs) differs, and is unchanged otherwise; one whose phone is a
 *   member's and whose e-mail is another's is rejected (conflicting_members), as is a later row naming a member an
 *   earlier row already did.
 * So importing a file twice, or the group's own export, changes nothing the second time.
 */
export function planImport(rows: ContactCsvRow[], stored: StoredContact[]): ImportPlan {
  const rejected: ContactImportRejectedRow[] = [];
  const reject = (row: { line: number; values: ContactCsvRow['values'] }, code: ContactImportRejectedRow['code'], message: string) =>
    rejected.push({ line: row.line, values: { ...row.values } as Record<string, string>, code, message });

  // within the file
  const entries: Entry[] = [];
  const byPhone = new Map<string, Entry>();
  const byEmail = new Map<string, Entry>();
  for (const row of rows) {
    const checked = checkContactRow(row.input);
    if ('problem' in checked) {
      reject(row, checked.problem.code, checked.problem.message);
      continue;
    }
    const { contact } = checked;
    const samePhone = contact.phone ? byPhone.get(contact.phone) : undefined;
    const sameEmail = contact.email ? byEmail.get(emailKey(contact.email)) : undefined;
    const first = [samePhone, sameEmail].filter((e): e is Entry => !!e).sort((a, b) => a.line - b.line)[0];
    if (first) {
      // the first takes what it lacked, unless another row already has it
      if (!first.contact.phone && contact.phone && !byPhone.has(contact.phone)) byPhone.set((first.contact.phone = contact.phone), first);
      if (!first.contact.email && contact.email && !byEmail.has(emailKey(contact.email))) byEmail.set(emailKey((first.contact.email = contact.email)), first);
      const what = first === samePhone ? `phone number as line ${first.line}` : `e-mail address as line ${first.line}`;
      reject(row, 'duplicate_in_file', `Same ${what}: merged into it`);
      continue;
    }
    const entry: Entry = { line: row.line, values: row.values, contact: { ...contact }, languageBlank: !row.input.language?.trim() };
    entries.push(entry);
    if (contact.phone) byPhone.set(contact.phone, entry);
    if (contact.email) byEmail.set(emailKey(contact.email), entry);
  }

  // against the group
  const storedByPhone = new Map(stored.filter((c) => c.phone).map((c) => [c.phone!, c]));
  const storedByEmail = new Map(stored.filter((c) => c.email).map((c) => [emailKey(c.email!), c]));
  const matchedBy = new Map<string, Entry>();
  const plan: ImportPlan = { create: [], update: [], unchanged: 0, rejected };
  for (const entry of entries) {
    const { contact } = entry;
    const phoneOf = contact.phone ? storedByPhone.get(contact.phone) : undefined;
    const emailOf = contact.email ? storedByEmail.get(emailKey(contact.email)) : undefined;
    if (phoneOf && emailOf && phoneOf !== emailOf) {
      reject(
        entry,
        'conflicting_members',
        `The phone number is ${phoneOf.name}'s and the e-mail address ${emailOf.name}'s, two members of the group: remove one, or correct the row`,
      );
      continue;
    }
    const member = phoneOf ?? emailOf;
    if (!member) {
      plan.create.push(contact);
      continue;
    }
    const earlier = matchedBy.get(member.id);
    if (earlier) {
      reject(entry, 'duplicate_in_file', `Names the same member (${member.name}) as line ${earlier.line}: only line ${earlier.line} is imported`);
      continue;
    }
    matchedBy.set(member.id, entry);
    const next: StoredContact = {
      id: member.id,
      name: contact.name,
      phone: contact.phone ?? member.phone,
      // the same address in another case is the same address: the stored spelling stays
      email: contact.email && (!member.email || emailKey(contact.email) !== emailKey(member.email)) ? contact.email : member.email,
      language: entry.languageBlank ? member.language : contact.language,
    };
    if (next.name === member.name && next.phone === member.phone && next.email === member.email && next.language === member.language) plan.unchanged++;
    else plan.update.push(next);
  }
  rejected.sort((a, b) => a.line - b.line);
  return plan;
}

/** A contact as the preview lists it: the fields it has. */
export const asRowInput = (c: Contact): ContactRowInput => ({
  name: c.name,
  ...(c.phone ? { phone: c.phone } : {}),
  ...(c.email ? { email: c.email } : {}),
  language: c.language,
});
