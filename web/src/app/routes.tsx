import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { ForgotPasswordPage, LoginPage, RequireAdmin, RequireAuth, RequireRole, RequireStaff, ResetPasswordPage, SignupPage } from '@/features/auth';
import { AdminLayout, DashboardLayout, PageOutlet, PublicLayout } from '@/app/layouts';
import { Placeholder } from '@/common/Placeholder';
import { LandingPage } from '@/features/landing';
import { RouteErrorOrOffline, sectionPage } from '@/features/offline';
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

/** The document title of a route (WCAG 2.4.2): `handle: { title }`, shown as "<title> · Beacon". */
export type RouteHandle = { title: string };
const titled = (title: string): { handle: RouteHandle } => ({ handle: { title } });

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
          { path: '/', element: <LandingPage />, ...titled('Public safety alerts') },
          { path: '/login', element: <LoginPage />, ...titled('Sign In') },
          { path: '/signup', element: <SignupPage />, ...titled('Sign Up') },
          { path: '/forgot-password', element: <ForgotPasswordPage />, ...titled('Forgot Password') },
          { path: '/reset-password', element: <ResetPasswordPage />, ...titled('Reset Password') },
          { path: '/faq', element: <FaqPage />, ...titled('FAQ') },
          { path: '/premium', element: <PremiumPage />, ...titled('Premium') },
          { path: '/map', element: <SafetyMapPage />, ...titled('Safety Map') },
          { path: '/terms', element: <TermsPage />, ...titled('Terms of Service') },
          { path: '/privacy', element: <PrivacyPage />, ...titled('Privacy Policy') },
          { path: '/contact', element: <ContactPage />, ...titled('Contact Support') },
          {
            element: <RequireAuth />,
            children: [
              { path: '/alerts', element: <UserAlertsPage />, ...titled('Alerts') },
              { path: '/alerts/:id', element: <UserAlertDetailPage />, ...titled('Alert') },
              { path: '/profile', element: <ProfilePage />, ...titled('Profile') },
              { path: '/settings', element: <ProfilePage />, ...titled('Settings') },
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
              { index: true, element: <DashboardHomePage />, ...titled('Dashboard') },
              { path: 'alerts', element: <AlertPreferencesPage />, ...titled('Alert Management') },
              { path: 'maps', element: <SafetyMapPage />, ...titled('Maps') },
              { path: 'cameras', element: <CamerasPage />, ...titled('Cameras') },
              { path: 'report-incident', element: <ReportIncidentPage />, ...titled('Report Incident') },
              { path: 'community', element: <CommunityPage />, ...titled('Community') },
              { path: 'store', element: <StorePage />, ...titled('Store') },
              { path: 'activity', element: <ActivityPage />, ...titled('Activity') },
              {
                path: 'settings',
                element: <Placeholder title="Settings - Coming Soon" note="Your account settings live on the Profile page for now." />,
                ...titled('Settings'),
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
              { index: true, element: <AdminDashboardPage />, ...titled('Admin Dashboard') },
              { path: 'alerts', element: <AdminAlertsPage />, ...titled('Sent Alerts') },
              { path: 'alerts/:id', element: <AdminAlertDetailPage />, ...titled('Alert Details') },
              {
                element: <RequireRole min="publisher" />,
                children: [
                  { path: 'create-alert', element: <CreateAlertPage />, ...titled('Create Alert') },
                  { path: 'quick-send', element: <QuickSendPage />, ...titled('Quick Send') },
                ],
              },
              { path: 'history', element: <AlertHistoryPage />, ...titled('Alert History') },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'settings', element: <AdminSettingsPage />, ...titled('Admin Settings') },
                  { path: 'moderation', element: <ModerationPage />, ...titled('Moderation') },
                  { path: 'products', element: <AdminProductsPage />, ...titled('Products') },
                ],
              },
              { path: 'help-requests', element: <HelpRequestsPage />, ...titled('Help Requests') },
              // no catch-all here: the spec sends unknown paths to / everywhere except under /dashboard
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
