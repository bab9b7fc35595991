import type { ComponentType } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { Navigate, type RouteObject } from 'react-router-dom';
import { ForgotPasswordPage, LoginPage, RequireAdmin, RequireAuth, RequireRole, RequireStaff, ResetPasswordPage, SignupPage } from '@/features/auth';
import { AdminLayout, DashboardLayout, PageOutlet, PublicLayout } from '@/app/layouts';
import { Placeholder } from '@/common/Placeholder';
import { LandingPage } from '@/features/landing';
import { RouteErrorOrOffline, sectionPage } from '@/features/offline';
import { defineMessages } from '@/i18n';
import { RouteAnnouncer } from './RouteAnnouncer';

/**
 * A page whose code loads only when its route is first shown (one chunk per feature; the admin console is one chunk
 * of its own), so the signed-out landing page downloads only the app shell, the landing page and the sign-in forms.
 * Offline, a page whose code was never downloaded shows the offline page in its place (sectionPage).
 */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return sectionPage(async () => (await load())[name] as ComponentType);
}

const FaqPage = page(() => import('@/features/faq'), 'FaqPage');
const PremiumPage = page(() => import('@/features/premium'), 'PremiumPage');
const TermsPage = page(() => import('@/features/legal'), 'TermsPage');
const PrivacyPage = page(() => import('@/features/legal'), 'PrivacyPage');
const ContactPage = page(() => import('@/features/legal'), 'ContactPage');
const ProfilePage = page(() => import('@/features/profile'), 'ProfilePage');
const DashboardHomePage = page(() => import('@/features/dashboard-home'), 'DashboardHomePage');
const ActivityPage = page(() => import('@/features/dashboard-home'), 'ActivityPage');
const StorePage = page(() => import('@/features/store/StorePage'), 'StorePage');
const ReportIncidentPage = page(() => import('@/features/incidents'), 'ReportIncidentPage');
const CommunityPage = page(() => import('@/features/community'), 'CommunityPage');
const CamerasPage = page(() => import('@/features/traffic'), 'CamerasPage');
const SafetyMapPage = page(() => import('@/features/map'), 'SafetyMapPage');
const UserAlertsPage = page(() => import('@/features/alerts'), 'UserAlertsPage');
const UserAlertDetailPage = page(() => import('@/features/alerts'), 'UserAlertDetailPage');
const AlertPreferencesPage = page(() => import('@/features/alerts'), 'AlertPreferencesPage');

const admin = () => import('./admin-area');
const AdminDashboardPage = page(admin, 'AdminDashboardPage');
const AdminAlertsPage = page(admin, 'AdminAlertsPage');
const AdminAlertDetailPage = page(admin, 'AdminAlertDetailPage');
const CreateAlertPage = page(admin, 'CreateAlertPage');
const QuickSendPage = page(admin, 'QuickSendPage');
const AlertHistoryPage = page(admin, 'AlertHistoryPage');
const AdminSettingsPage = page(admin, 'AdminSettingsPage');
const ModerationPage = page(admin, 'ModerationPage');
const AdminProductsPage = page(admin, 'AdminProductsPage');
const HelpRequestsPage = page(admin, 'HelpRequestsPage');
const ContactGroupsPage = page(admin, 'ContactGroupsPage');
const ContactGroupPage = page(admin, 'ContactGroupPage');

/** The document title of a route (WCAG 2.4.2): `handle: { title }`, a message, shown as "<title> · Beacon". */
export type RouteHandle = { title: MessageDescriptor };
const titled = (title: MessageDescriptor): { handle: RouteHandle } => ({ handle: { title } });

const TITLES = defineMessages({
  home: { id: 'app.title.home', defaultMessage: 'Public safety alerts' },
  signIn: { id: 'app.title.signIn', defaultMessage: 'Sign In' },
  signUp: { id: 'app.title.signUp', defaultMessage: 'Sign Up' },
  forgotPassword: { id: 'app.title.forgotPassword', defaultMessage: 'Forgot Password' },
  resetPassword: { id: 'app.title.resetPassword', defaultMessage: 'Reset Password' },
  faq: { id: 'app.title.faq', defaultMessage: 'FAQ' },
  premium: { id: 'app.title.premium', defaultMessage: 'Premium' },
  safetyMap: { id: 'app.title.safetyMap', defaultMessage: 'Safety Map' },
  termsOfService: { id: 'app.title.termsOfService', defaultMessage: 'Terms of Service' },
  privacyPolicy: { id: 'app.title.privacyPolicy', defaultMessage: 'Privacy Policy' },
  contactSupport: { id: 'app.title.contactSupport', defaultMessage: 'Contact Support' },
  alerts: { id: 'app.title.alerts', defaultMessage: 'Alerts' },
  alert: { id: 'app.title.alert', defaultMessage: 'Alert' },
  profile: { id: 'app.title.profile', defaultMessage: 'Profile' },
  settings: { id: 'app.title.settings', defaultMessage: 'Settings' },
  dashboard: { id: 'app.title.dashboard', defaultMessage: 'Dashboard' },
  alertManagement: { id: 'app.title.alertManagement', defaultMessage: 'Alert Management' },
  maps: { id: 'app.title.maps', defaultMessage: 'Maps' },
  cameras: { id: 'app.title.cameras', defaultMessage: 'Cameras' },
  reportIncident: { id: 'app.title.reportIncident', defaultMessage: 'Report Incident' },
  community: { id: 'app.title.community', defaultMessage: 'Community' },
  store: { id: 'app.title.store', defaultMessage: 'Store' },
  activity: { id: 'app.title.activity', defaultMessage: 'Activity' },
  adminDashboard: { id: 'app.title.adminDashboard', defaultMessage: 'Admin Dashboard' },
  sentAlerts: { id: 'app.title.sentAlerts', defaultMessage: 'Sent Alerts' },
  alertDetails: { id: 'app.title.alertDetails', defaultMessage: 'Alert Details' },
  createAlert: { id: 'app.title.createAlert', defaultMessage: 'Create Alert' },
  quickSend: { id: 'app.title.quickSend', defaultMessage: 'Quick Send' },
  alertHistory: { id: 'app.title.alertHistory', defaultMessage: 'Alert History' },
  adminSettings: { id: 'app.title.adminSettings', defaultMessage: 'Admin Settings' },
  moderation: { id: 'app.title.moderation', defaultMessage: 'Moderation' },
  products: { id: 'app.title.products', defaultMessage: 'Products' },
  helpRequests: { id: 'app.title.helpRequests', defaultMessage: 'Help Requests' },
  contactGroups: { id: 'app.title.contactGroups', defaultMessage: 'Contact Groups' },
  contactGroup: { id: 'app.title.contactGroup', defaultMessage: 'Contact Group' },
});

/** /dashboard/settings, not built yet: its settings are on the Profile page. */
function SettingsPlaceholder() {
  const intl = useIntl();
  return (
    <Placeholder
      title={intl.formatMessage({ id: 'app.settingsPlaceholder.title', defaultMessage: 'Settings - Coming Soon' })}
      note={intl.formatMessage({ id: 'app.settingsPlaceholder.note', defaultMessage: 'Your account settings live on the Profile page for now.' })}
    />
  );
}

/**
 * The complete route table of both spec documents (part 1 section 2, part 2 section 2), under one pathless root
 * whose errorElement shows the spec's error screen for any page that throws while rendering (the offline page for
 * code that could not be downloaded), and whose element
 * titles each page and moves focus to its heading on navigation (RouteAnnouncer).
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorOrOffline />,
    element: (
      <>
        <RouteAnnouncer />
        <PageOutlet />
      </>
    ),
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage />, ...titled(TITLES.home) },
          { path: '/login', element: <LoginPage />, ...titled(TITLES.signIn) },
          { path: '/signup', element: <SignupPage />, ...titled(TITLES.signUp) },
          { path: '/forgot-password', element: <ForgotPasswordPage />, ...titled(TITLES.forgotPassword) },
          { path: '/reset-password', element: <ResetPasswordPage />, ...titled(TITLES.resetPassword) },
          { path: '/faq', element: <FaqPage />, ...titled(TITLES.faq) },
          { path: '/premium', element: <PremiumPage />, ...titled(TITLES.premium) },
          { path: '/map', element: <SafetyMapPage />, ...titled(TITLES.safetyMap) },
          { path: '/terms', element: <TermsPage />, ...titled(TITLES.termsOfService) },
          { path: '/privacy', element: <PrivacyPage />, ...titled(TITLES.privacyPolicy) },
          { path: '/contact', element: <ContactPage />, ...titled(TITLES.contactSupport) },
          {
            element: <RequireAuth />,
            children: [
              { path: '/alerts', element: <UserAlertsPage />, ...titled(TITLES.alerts) },
              { path: '/alerts/:id', element: <UserAlertDetailPage />, ...titled(TITLES.alert) },
              { path: '/profile', element: <ProfilePage />, ...titled(TITLES.profile) },
              { path: '/settings', element: <ProfilePage />, ...titled(TITLES.settings) },
            ],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: '/dashboard',
            element: <DashboardLayout />,
            children: [
              { index: true, element: <DashboardHomePage />, ...titled(TITLES.dashboard) },
              { path: 'alerts', element: <AlertPreferencesPage />, ...titled(TITLES.alertManagement) },
              { path: 'maps', element: <SafetyMapPage />, ...titled(TITLES.maps) },
              { path: 'cameras', element: <CamerasPage />, ...titled(TITLES.cameras) },
              { path: 'report-incident', element: <ReportIncidentPage />, ...titled(TITLES.reportIncident) },
              { path: 'community', element: <CommunityPage />, ...titled(TITLES.community) },
              { path: 'store', element: <StorePage />, ...titled(TITLES.store) },
              { path: 'activity', element: <ActivityPage />, ...titled(TITLES.activity) },
              {
                path: 'settings',
                element: <SettingsPlaceholder />,
                ...titled(TITLES.settings),
              },
              { path: '*', element: <Navigate to="/dashboard" replace /> },
            ],
          },
        ],
      },
      {
        // every staff role (issue #38): a viewer reads the console; pages that act need more
        element: <RequireStaff />,
        children: [
          {
            path: '/admin',
            element: <AdminLayout />,
            children: [
              { index: true, element: <AdminDashboardPage />, ...titled(TITLES.adminDashboard) },
              { path: 'alerts', element: <AdminAlertsPage />, ...titled(TITLES.sentAlerts) },
              { path: 'alerts/:id', element: <AdminAlertDetailPage />, ...titled(TITLES.alertDetails) },
              {
                element: <RequireRole min="publisher" />,
                children: [
                  { path: 'create-alert', element: <CreateAlertPage />, ...titled(TITLES.createAlert) },
                  { path: 'quick-send', element: <QuickSendPage />, ...titled(TITLES.quickSend) },
                ],
              },
              { path: 'history', element: <AlertHistoryPage />, ...titled(TITLES.alertHistory) },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'settings', element: <AdminSettingsPage />, ...titled(TITLES.adminSettings) },
                  { path: 'moderation', element: <ModerationPage />, ...titled(TITLES.moderation) },
                  { path: 'products', element: <AdminProductsPage />, ...titled(TITLES.products) },
                ],
              },
              { path: 'help-requests', element: <HelpRequestsPage />, ...titled(TITLES.helpRequests) },
              // every staff role reads contact groups; the pages show an admin alone the controls that change them
              { path: 'contact-groups', element: <ContactGroupsPage />, ...titled(TITLES.contactGroups) },
              { path: 'contact-groups/:id', element: <ContactGroupPage />, ...titled(TITLES.contactGroup) },
              // no catch-all here: the spec sends unknown paths to / everywhere except under /dashboard
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
