// The alert screens (spec part 2: admin area, Emergency Alerts; part 1: the alert preferences screen).
export { UserAlertsPage } from './UserAlertsPage';
export { UserAlertDetailPage } from './UserAlertDetailPage';
export { AlertPreferencesPage } from './AlertPreferencesPage';
export { AdminDashboardPage } from './AdminDashboardPage';
export { CreateAlertPage } from './CreateAlertPage';
export { QuickSendPage } from './QuickSendPage';
export { AdminAlertsPage } from './AdminAlertsPage';
export { AdminAlertDetailPage } from './AdminAlertDetailPage';
export { AlertHistoryPage } from './AlertHistoryPage';
export { AdminSettingsPage } from './AdminSettingsPage';
export { HelpRequestsPage } from './HelpRequestsPage';
