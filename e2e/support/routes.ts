/** The routes a visitor can open, and those a signed-in user can (the public pages again, under the signed-in header). */
export const SIGNED_OUT = ['/', '/login', '/signup', '/forgot-password', '/reset-password', '/faq', '/premium', '/map', '/terms', '/privacy', '/contact'];
export const SIGNED_IN = [
  '/dashboard',
  '/dashboard/alerts',
  '/dashboard/maps',
  '/dashboard/cameras',
  '/dashboard/report-incident',
  '/dashboard/community',
  '/dashboard/store',
  '/dashboard/activity',
  '/dashboard/settings',
  '/alerts',
  '/alerts/:id',
  '/profile',
  '/settings',
  // the public pages again, under the signed-in header
  '/',
  '/faq',
  '/premium',
  '/map',
  '/terms',
  '/privacy',
  '/contact',
];
