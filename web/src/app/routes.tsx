import { Navigate, type RouteObject } from 'react-router-dom';
import { ForgotPasswordPage, LoginPage, RequireAdmin, RequireAuth, ResetPasswordPage, SignupPage } from '@/features/auth';
import { AdminLayout, DashboardLayout, PublicLayout } from '@/app/layouts';
import { Placeholder } from '@/common/Placeholder';
import { RouteErrorScreen } from '@/common/ErrorBoundary';
import { LandingPage } from '@/features/landing';
import { FaqPage } from '@/features/faq';
import { PremiumPage } from '@/features/premium';
import { ProfilePage } from '@/features/profile';
import { ActivityPage, DashboardHomePage } from '@/features/dashboard-home';
import { AdminProductsPage, StorePage } from '@/features/store';
import { ReportIncidentPage } from '@/features/incidents';
import { CommunityPage } from '@/features/community';
import { ModerationPage } from '@/features/moderation';
import { CamerasPage } from '@/features/traffic';
import { SafetyMapPage } from '@/features/map';
import { AlertPreferencesPage, UserAlertDetailPage, UserAlertsPage } from '@/features/alerts';
import {
  AdminAlertDetailPage,
  AdminAlertsPage,
  AdminDashboardPage,
  AdminSettingsPage,
  AlertHistoryPage,
  CreateAlertPage,
  HelpRequestsPage,
  QuickSendPage,
} from '@/features/alerts-admin';

/**
 * The complete route table of both spec documents (part 1 section 2, part 2 section 2), under one pathless root
 * whose errorElement shows the spec's error screen for any page that throws while rendering.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorScreen />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/login', element: <LoginPage /> },
          { path: '/signup', element: <SignupPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '/faq', element: <FaqPage /> },
          { path: '/premium', element: <PremiumPage /> },
          { path: '/map', element: <SafetyMapPage /> },
          {
            element: <RequireAuth />,
            children: [
              { path: '/alerts', element: <UserAlertsPage /> },
              { path: '/alerts/:id', element: <UserAlertDetailPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/settings', element: <ProfilePage /> },
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
              { index: true, element: <DashboardHomePage /> },
              { path: 'alerts', element: <AlertPreferencesPage /> },
              { path: 'maps', element: <SafetyMapPage /> },
              { path: 'cameras', element: <CamerasPage /> },
              { path: 'report-incident', element: <ReportIncidentPage /> },
              { path: 'community', element: <CommunityPage /> },
              { path: 'store', element: <StorePage /> },
              { path: 'activity', element: <ActivityPage /> },
              { path: 'settings', element: <Placeholder title="Settings - Coming Soon" note="Your account settings live on the Profile page for now." /> },
              { path: '*', element: <Navigate to="/dashboard" replace /> },
            ],
          },
        ],
      },
      {
        element: <RequireAdmin />,
        children: [
          {
            path: '/admin',
            element: <AdminLayout />,
            children: [
              { index: true, element: <AdminDashboardPage /> },
              { path: 'alerts', element: <AdminAlertsPage /> },
              { path: 'alerts/:id', element: <AdminAlertDetailPage /> },
              { path: 'create-alert', element: <CreateAlertPage /> },
              { path: 'quick-send', element: <QuickSendPage /> },
              { path: 'history', element: <AlertHistoryPage /> },
              { path: 'settings', element: <AdminSettingsPage /> },
              { path: 'moderation', element: <ModerationPage /> },
              { path: 'products', element: <AdminProductsPage /> },
              { path: 'help-requests', element: <HelpRequestsPage /> },
              // no catch-all here: the spec sends unknown paths to / everywhere except under /dashboard
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
