import { useId, useState, type FormEvent } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGE_LABELS, SUPPORTED_LANGUAGES, type ContactMemberInput, type Language } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useAddContactGroupMemberMutation } from './contact-groups.api';

type Outcome = { ok: boolean; text: string } | null;

/** The outcome of the last add, under its form: announced politely when done, at once when refused. */
function OutcomeLine({ id, outcome }: { id: string; outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <p id={id} className={outcome.ok ? 'small' : 'field-error'} role={outcome.ok ? 'status' : 'alert'}>
      {outcome.text}
    </p>
  );
}

function useAddMember(groupId: string) {
  const [add, { isLoading }] = useAddContactGroupMemberMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function submit(member: ContactMemberInput, added: string): Promise<boolean> {
    setOutcome(null);
    try {
      await add({ id: groupId, member }).unwrap();
      setOutcome({ ok: true, text: `${added} added to the group.` });
      return true;
    } catch (e) {
      setOutcome({ ok: false, text: errorMessage(e, 'The member could not be added.') });
      return false;
    }
  }
  return { submit, busy: isLoading, outcome, setOutcome };
}

/** Adds a Beacon user by the e-mail address of their account. */
function AddUserForm({ groupId }: { groupId: string }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const { submit, busy, outcome, setOutcome } = useAddMember(groupId);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim();
    if (!address) return setOutcome({ ok: false, text: "Enter the e-mail address of the person's Beacon account." });
    if (await submit({ kind: 'user', email: address }, address)) setEmail('');
  }

  return (
    <form className="contact-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 id={`${id}-title`}>Add a Beacon user</h3>
      <div className="field">
        <label htmlFor={`${id}-email`}>Account e-mail</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={outcome?.ok === false}
          aria-describedby={outcome ? `${id}-outcome` : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Adding...' : 'Add User'}
      </button>
      <OutcomeLine id={`${id}-outcome`} outcome={outcome} />
    </form>
  );
}

const EMPTY_CONTACT = { name: '', phone: '', email: '', language: DEFAULT_LANGUAGE as Language };

/** Adds a contact who has no Beacon account: reached by SMS, voice and e-mail in their language, never push. */
function AddExternalForm({ groupId }: { groupId: string }) {
  const id = useId();
  const [contact, setContact] = useState(EMPTY_CONTACT);
  const { submit, busy, outcome, setOutcome } = useAddMember(groupId);
  const set = (field: keyof typeof EMPTY_CONTACT) => (e: { target: { value: string } }) => setContact((c) => ({ ...c, [field]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const name = contact.name.trim();
    const phone = contact.phone.trim();
    const email = contact.email.trim();
    if (!name) return setOutcome({ ok: false, text: 'Enter the contact’s name.' });
    if (!phone && !email) return setOutcome({ ok: false, text: 'Enter a phone number, an e-mail address or both.' });
    const member: ContactMemberInput = { kind: 'external', name, language: contact.language, ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
    if (await submit(member, name)) setContact(EMPTY_CONTACT);
  }

  return (
    <form className="contact-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 id={`${id}-title`}>Add an external contact</h3>
      <p className="muted small" id={`${id}-hint`}>
        Someone without a Beacon account, reached by SMS, voice call and e-mail. Give a phone number in international format (+15551234567), an e-mail address,
        or both.
      </p>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} autoComplete="off" value={contact.name} onChange={set('name')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-phone`}>Phone</label>
        <input id={`${id}-phone`} type="tel" autoComplete="off" value={contact.phone} onChange={set('phone')} aria-describedby={`${id}-hint`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail</label>
        <input id={`${id}-email`} type="email" autoComplete="off" value={contact.email} onChange={set('email')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-language`}>Language</label>
        <select id={`${id}-language`} value={contact.language} onChange={set('language')}>
          {SUPPORTED_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_LABELS[l]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Adding...' : 'Add Contact'}
      </button>
      <OutcomeLine id={`${id}-outcome`} outcome={outcome} />
    </form>
  );
}

/** The two ways to add one member (an admin's). */
export function AddMemberForms({ groupId }: { groupId: string }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add members</h2>
      <div className="contact-forms">
        <AddUserForm groupId={groupId} />
        <AddExternalForm groupId={groupId} />
      </div>
    </section>
  );
}
