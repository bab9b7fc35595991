import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { AlertResponses } from '@beacon/contracts';

/** What the people the alert reached answered, counted live: I'm Safe marks, and help requests (open ones apart). */
export function AlertResponsesCard({ responses }: { responses: AlertResponses }) {
  const id = useId();
  const { safe, needHelp, helpOpen } = responses;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`}>Answers</h2>
        <Link to="/admin/help-requests" className="btn btn-outline btn-sm">
          Help requests
        </Link>
      </div>
      <ul className="row" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Answers to this alert">
        <li>
          I&apos;m Safe: <strong>{safe}</strong>
        </li>
        <li>
          Need help: <strong>{needHelp}</strong> ({helpOpen} open)
        </li>
      </ul>
    </section>
  );
}
