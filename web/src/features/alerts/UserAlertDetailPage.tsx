import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  const now = useNow();
  const navigate = useNavigate();
  const { data: a, isLoading, isError, error } = useMyAlertQuery(id, { skip: !id });
  const allAlerts = <FormattedMessage id="alerts.detail.allAlerts" defaultMessage="All Alerts" />;

  return (
    <section className="page" aria-labelledby="user-alert-title">
      <header className="page-header">
        <h1 id="user-alert-title">
          <FormattedMessage id="alerts.detail.title" defaultMessage="Alert" />
        </h1>
        <div className="row">
          <Link to="/alerts" className="btn btn-outline">
            {allAlerts}
          </Link>
          <a href="tel:911" className="btn call-911">
            <Phone aria-hidden="true" size={16} /> <FormattedMessage id="alerts.detail.call911" defaultMessage="Call 911" />
          </a>
        </div>
      </header>
      {isLoading ? (
        <Spinner label={intl.formatMessage({ id: 'alerts.detail.loading', defaultMessage: 'Loading alert' })} />
      ) : isError || !a ? (
        <div className="empty-state" role="alert">
          <p>
            {(error as { statusCode?: number } | undefined)?.statusCode === 404
              ? intl.formatMessage({ id: 'alerts.detail.notFound', defaultMessage: 'This alert was not sent to you, or it no longer exists.' })
              : intl.formatMessage({ id: 'alerts.detail.loadFailed', defaultMessage: 'Failed to load alerts' })}
          </p>
          <Link to="/alerts" className="btn btn-outline">
            {allAlerts}
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
