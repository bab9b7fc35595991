import type { IntlShape } from 'react-intl';
import type { AlertCategory, Severity } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';

/**
 * The names of alert severities and categories as every public screen shows them, in the reader's language. Their
 * translations are the words Beacon's own e-mails use (contracts' MESSAGE_WORDS), so a screen and an e-mail agree.
 */
const SEVERITY_NAMES = defineMessages({
  low: { id: 'alerts.severity.low', defaultMessage: 'Low' },
  medium: { id: 'alerts.severity.medium', defaultMessage: 'Medium' },
  high: { id: 'alerts.severity.high', defaultMessage: 'High' },
  critical: { id: 'alerts.severity.critical', defaultMessage: 'Critical' },
});

const CATEGORY_NAMES = defineMessages({
  weather: { id: 'alerts.category.weather', defaultMessage: 'Weather' },
  traffic: { id: 'alerts.category.traffic', defaultMessage: 'Traffic' },
  security: { id: 'alerts.category.security', defaultMessage: 'Security' },
  public_safety: { id: 'alerts.category.publicSafety', defaultMessage: 'Public Safety' },
  health: { id: 'alerts.category.health', defaultMessage: 'Health' },
});

export const severityName = (severity: Severity, intl: IntlShape = currentIntl()): string => intl.formatMessage(SEVERITY_NAMES[severity]);

export const categoryName = (category: AlertCategory, intl: IntlShape = currentIntl()): string =>
  CATEGORY_NAMES[category] ? intl.formatMessage(CATEGORY_NAMES[category]) : category;
