// The signed-in user's alert screens (spec part 2: Emergency Alerts; part 1: the alert preferences screen).
export { UserAlertsPage } from './UserAlertsPage';
export { UserAlertDetailPage } from './UserAlertDetailPage';
export { AlertPreferencesPage } from './AlertPreferencesPage';
export { LocationBanner, useFirstRunPrompt } from './LocationOnboarding';

// What the admin console's alert screens (features/alerts-admin) build on; this feature never imports the console.
// The stylesheet is shared as well: the console's screens import '@/features/alerts/alerts.css'.
export { applyAlertUpdate, changedFields, queryParams, registerAlertCopies } from './alerts.api';
export { withoutHeld } from './live';
export { LoadError, SeverityBadge } from './ui';
export { LazyAreaMap } from './LazyAreaMap';
export { AlertAreaMap, areaText } from './AlertAreaMap';
