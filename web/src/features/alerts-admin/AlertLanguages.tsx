import { Fragment, useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  ALERT_LIMITS,
  LANGUAGE_LABELS,
  SMS_MAX_SEGMENTS,
  TRANSLATION_LANGUAGES,
  alertLanguages,
  smsSegments,
  smsText,
  textInLanguage,
  type AlertTemplate,
  type AlertTranslations,
  type TranslationLanguage,
} from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { languageName, translationKey, type FieldErrors, type FormTranslations } from './alert-form';
import { useCreateTemplateMutation, useDeleteTemplateMutation, useListTemplatesQuery, type TemplateBody } from './alerts-admin.api';
import { CountedField } from './ui';
import './languages.css';

/**
 * The create screens' pieces for alerts in more than one language (issue #19): the text in other languages, the SMS
 * length per language, and templates to start from.
 */

interface TranslationFieldsProps {
  value: FormTranslations;
  errors: FieldErrors;
  onChange: (value: FormTranslations) => void;
}

/** "Add a language" and, per language added, its title and message (checked like the English), removable. */
export function TranslationFields({ value, errors, onChange }: TranslationFieldsProps) {
  const id = useId();
  const added = TRANSLATION_LANGUAGES.filter((l) => value[l]);
  const free = TRANSLATION_LANGUAGES.filter((l) => !value[l]);
  const [adding, setAdding] = useState<TranslationLanguage | ''>('');
  const choice = adding && free.includes(adding) ? adding : (free[0] ?? '');
  const edit = (l: TranslationLanguage, field: 'title' | 'message', text: string) =>
    onChange({ ...value, [l]: { ...(value[l] ?? { title: '', message: '' }), [field]: text } });
  const remove = (l: TranslationLanguage) => {
    const next = { ...value };
    delete next[l];
    onChange(next);
  };
  return (
    <fieldset className="field translations">
      <legend>Other languages (optional)</legend>
      <p className="small muted">Recipients who chose one of these languages get the alert in it; everyone else gets the English.</p>
      {added.map((l) => (
        <div key={l} className="translation" role="group" aria-label={`${languageName(l)} text`}>
          <div className="row-between">
            <strong>{LANGUAGE_LABELS[l]}</strong>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => remove(l)}>
              Remove {languageName(l)}
            </button>
          </div>
          <CountedField
            id={`${id}-${l}-title`}
            label={`${languageName(l)} title`}
            value={value[l]!.title}
            max={ALERT_LIMITS.titleMax}
            error={errors[translationKey(l, 'title')]}
            onChange={(v) => edit(l, 'title', v)}
          />
          <CountedField
            id={`${id}-${l}-message`}
            label={`${languageName(l)} message`}
            value={value[l]!.message}
            max={ALERT_LIMITS.messageMax}
            error={errors[translationKey(l, 'message')]}
            onChange={(v) => edit(l, 'message', v)}
            multiline
          />
        </div>
      ))}
      {free.length > 0 && (
        <div className="row">
          <label htmlFor={`${id}-add`} className="visually-hidden">
            Language to add
          </label>
          <select id={`${id}-add`} value={choice} onChange={(e) => setAdding(e.target.value as TranslationLanguage)}>
            {free.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_LABELS[l]}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => choice && edit(choice, 'title', '')}>
            Add language
          </button>
        </div>
      )}
    </fieldset>
  );
}

/**
 * The SMS each language would send (title, line break, message), live: its encoding (GSM-7, or UCS-2 when one character
 * is outside GSM-7), characters and segments; a language over SMS_MAX_SEGMENTS is flagged (the API refuses it).
 */
export function SmsSegmentsTable({ title, message, translations }: { title: string; message: string; translations: FormTranslations }) {
  const alert = { title: title.trim(), message: message.trim(), translations };
  const rows = alertLanguages(alert).map((language) => {
    const text = textInLanguage(alert, language);
    return { language, ...smsSegments(smsText({ title: text.title.trim(), message: text.message.trim() })) };
  });
  return (
    <div className="sms-segments table-wrap" role="region" aria-label="SMS length per language">
      <table>
        <caption className="small muted">SMS length (title and message; at most {SMS_MAX_SEGMENTS} segments)</caption>
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Encoding</th>
            <th scope="col">Characters</th>
            <th scope="col">Segments</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.language} className={r.segments > SMS_MAX_SEGMENTS ? 'over' : undefined}>
              <th scope="row">{LANGUAGE_LABELS[r.language]}</th>
              <td>{r.encoding}</td>
              <td>{r.characters}</td>
              <td>
                {r.segments}
                {r.segments > SMS_MAX_SEGMENTS && <span className="field-error"> Too long for SMS: shorten it</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface TemplateBarProps {
  /** Fills the form from the chosen template. */
  onApply: (template: AlertTemplate) => void;
  /** The form as a template (for "Save as template"); null when the form is not valid yet. */
  current: (name: string) => TemplateBody | null;
}

/** "Start from a template", and saving the form as a template or deleting the chosen one. */
export function TemplateBar({ onApply, current }: TemplateBarProps) {
  const id = useId();
  const { data: templates = [] } = useListTemplatesQuery();
  const [createTemplate, { isLoading: saving }] = useCreateTemplateMutation();
  const [deleteTemplate, { isLoading: deleting }] = useDeleteTemplateMutation();
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const selected = templates.find((t) => t.id === chosen);

  async function save() {
    setProblem(null);
    if (!name.trim()) return setProblem('Name the template');
    const body = current(name);
    if (!body) return setProblem('Fix the form first: a template is checked like an alert');
    try {
      const saved = await createTemplate(body).unwrap();
      toast.success(`Template "${saved.name}" saved`);
      setName('');
      setChosen(saved.id);
    } catch (err) {
      setProblem(errorMessage(err, 'The template was not saved'));
    }
  }

  async function remove() {
    if (!selected) return;
    setProblem(null);
    try {
      await deleteTemplate(selected.id).unwrap();
      toast.success(`Template "${selected.name}" deleted`);
      setChosen('');
    } catch (err) {
      setProblem(errorMessage(err, 'The template was not deleted'));
    }
  }

  return (
    <div className="card template-bar" role="region" aria-label="Templates">
      <div className="row">
        <label htmlFor={`${id}-template`}>Start from a template</label>
        <select
          id={`${id}-template`}
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            const t = templates.find((x) => x.id === e.target.value);
            if (t) onApply(t);
          }}
        >
          <option value="">Choose a template</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        {selected && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={remove} disabled={deleting}>
            Delete template
          </button>
        )}
      </div>
      <div className="row">
        <label htmlFor={`${id}-name`}>Template name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        <button type="button" className="btn btn-outline btn-sm" onClick={save} disabled={saving}>
          Save as template
        </button>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** An alert's text in its other languages (the admin's alert page), nothing when it has none. */
export function AlertTranslationsList({ translations }: { translations: AlertTranslations }) {
  const languages = TRANSLATION_LANGUAGES.filter((l) => translations[l]);
  if (!languages.length) return null;
  return (
    <>
      <h3>Other languages</h3>
      <dl className="review" aria-label="Other languages">
        {languages.map((l) => (
          <Fragment key={l}>
            <dt>{LANGUAGE_LABELS[l]}</dt>
            <dd lang={l}>
              <strong>{translations[l]!.title}</strong>
              <span className="pre-wrap block">{translations[l]!.message}</span>
            </dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}
