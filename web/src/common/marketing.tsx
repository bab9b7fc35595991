import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import './marketing.css';

/** Pieces the public marketing pages (landing, premium) share. */

export interface IconCardItem {
  /** An emoji, or the number of a step. */
  icon: ReactNode;
  title: string;
  text: string;
}

interface IconCardsProps {
  items: readonly IconCardItem[];
  listClassName: string;
  cardClassName: string;
  iconClassName: string;
  /** A numbered list (steps) rather than a grid of articles. */
  ordered?: boolean;
  /** The icon stands beside the title and text rather than above them. */
  iconBeside?: boolean;
}

/** Cards of an icon, a title and a line of text: features, tools, steps. */
export function IconCards({ items, listClassName, cardClassName, iconClassName, ordered = false, iconBeside = false }: IconCardsProps) {
  const List = ordered ? 'ol' : 'div';
  const Card = ordered ? 'li' : 'article';
  return (
    <List className={listClassName}>
      {items.map((item) => {
        const body = (
          <>
            <h3>{item.title}</h3>
            <p className="muted">{item.text}</p>
          </>
        );
        return (
          <Card key={item.title} className={`card ${cardClassName}`}>
            <span className={iconClassName} aria-hidden="true">
              {item.icon}
            </span>
            {iconBeside ? <div>{body}</div> : body}
          </Card>
        );
      })}
    </List>
  );
}

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

/** Testimonials with the notice (spec) that they are simulated, each one badged as such. */
export function SimulatedTestimonials({ items }: { items: readonly Testimonial[] }) {
  return (
    <>
      <p className="center muted small">
        <FormattedMessage id="common.testimonials.notice" defaultMessage="These testimonials are simulated examples, not statements by real users." />
      </p>
      <div className="grid-3">
        {items.map((t) => (
          <figure key={t.name} className="card testimonial">
            <span className="badge badge-medium">
              <FormattedMessage id="common.testimonials.badge" defaultMessage="Simulated testimonial" />
            </span>
            <blockquote>
              <FormattedMessage id="common.testimonials.quote" defaultMessage="“{quote}”" values={{ quote: t.quote }} />
            </blockquote>
            <figcaption>
              <strong>{t.name}</strong>
              <br />
              <span className="muted small">{t.role}</span>
            </figcaption>
          </figure>
        ))}
      </div>
    </>
  );
}
