// The whole admin console as one lazily loaded chunk: every /admin screen. Nobody but staff (viewer and up)
// downloads this code (see routes.tsx).
export {
  AdminAlertDetailPage,
  AdminAlertsPage,
  AdminDashboardPage,
  AdminSettingsPage,
  AlertHistoryPage,
  CreateAlertPage,
  HelpRequestsPage,
  QuickSendPage,
} from '@/features/alerts-admin';
export { ContactGroupPage, ContactGroupsPage } from '@/features/contact-groups-admin';
export { ModerationPage } from '@/features/moderation';
export { AdminProductsPage } from '@/features/store/AdminProductsPage';
