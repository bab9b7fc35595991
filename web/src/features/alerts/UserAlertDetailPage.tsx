import { Link, useNavigate, useParams } from 'react-router-dom';
import { Spinner } from '@/common/Spinner';
import { useNow } from '@/common/useNow';
import { useMyAlertQuery } from './alerts.api';
import { AlertAreaMap } from './AlertAreaMap';
import { UserAlertCard } from './UserAlertCard';
import './alerts.css';
import { Phone } from 'lucide-react';

/** /alerts/:id: one of my alerts (the link in notifications and copied text), with its area on a map. */
export function UserAlertDetailPage() {
  const { id = '' } = useParams();
  const now = useNow();
  const navigate = useNavigate();
  const { data: a, isLoading, isError, error } = useMyAlertQuery(id, { skip: !id });

  return (
    <section className="page" aria-labelledby="user-alert-title">
      <header className="page-header">
        <h1 id="user-alert-title">Alert</h1>
        <div className="row">
          <Link to="/alerts" className="btn btn-outline">
            All Alerts
          </Link>
          <a href="tel:911" className="btn call-911">
            <Phone aria-hidden="true" size={16} /> Call 911
          </a>
        </div>
      </header>
      {isLoading ? (
        <Spinner label="Loading alert" />
      ) : isError || !a ? (
        <div className="empty-state" role="alert">
          <p>
            {(error as { statusCode?: number } | undefined)?.statusCode === 404
              ? 'This alert was not sent to you, or it no longer exists.'
              : 'Failed to load alerts'}
          </p>
          <Link to="/alerts" className="btn btn-outline">
            All Alerts
          </Link>
        </div>
      ) : (
        <div className="stack">
          <ul className="alert-list">
            <UserAlertCard alert={a} now={now} detailLink={false} onDismissed={() => navigate('/alerts')} />
          </ul>
          <AlertAreaMap alert={a} />
        </div>
      )}
    </section>
  );
}
