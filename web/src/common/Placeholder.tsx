import { FormattedMessage } from 'react-intl';

/** A section that is not built yet; named honestly on screen. */
export function Placeholder({ title, note }: { title: string; note?: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="muted">{note ?? <FormattedMessage id="common.placeholder.note" defaultMessage="This section is being built." />}</p>
    </section>
  );
}
