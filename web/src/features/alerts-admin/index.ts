// The admin console's alert screens (spec part 2: admin area), under /admin behind RequireAdmin.
// They build on the user's alerts feature (features/alerts: its api slice endpoints, live updates, badges, map, styles).
export { AdminDashboardPage } from './AdminDashboardPage';
export { CreateAlertPage } from './CreateAlertPage';
export { QuickSendPage } from './QuickSendPage';
export { AdminAlertsPage } from './AdminAlertsPage';
export { AdminAlertDetailPage } from './AdminAlertDetailPage';
export { AlertHistoryPage } from './AlertHistoryPage';
export { AdminSettingsPage } from './AdminSettingsPage';
export { HelpRequestsPage } from './HelpRequestsPage';
export { OpenHelpRequestsBadge } from './OpenHelpRequestsBadge';
