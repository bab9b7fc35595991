import { defineMessages } from '@/i18n';

/** The names of the app's sections in its header, bottom bar and sidebars: one name per section, wherever it is listed. */
export const NAV = defineMessages({
  dashboard: { id: 'app.nav.dashboard', defaultMessage: 'Dashboard' },
  safetyMap: { id: 'app.nav.safetyMap', defaultMessage: 'Safety Map' },
  premium: { id: 'app.nav.premium', defaultMessage: 'Premium' },
  faq: { id: 'app.nav.faq', defaultMessage: 'FAQ' },
  alerts: { id: 'app.nav.alerts', defaultMessage: 'Alerts' },
  profile: { id: 'app.nav.profile', defaultMessage: 'Profile' },
  signIn: { id: 'app.nav.signIn', defaultMessage: 'Sign In' },
  signUp: { id: 'app.nav.signUp', defaultMessage: 'Sign Up' },
  signOut: { id: 'app.nav.signOut', defaultMessage: 'Sign Out' },
  maps: { id: 'app.nav.maps', defaultMessage: 'Maps' },
  report: { id: 'app.nav.report', defaultMessage: 'Report' },
  cameras: { id: 'app.nav.cameras', defaultMessage: 'Cameras' },
  community: { id: 'app.nav.community', defaultMessage: 'Community' },
  store: { id: 'app.nav.store', defaultMessage: 'Store' },
  settings: { id: 'app.nav.settings', defaultMessage: 'Settings' },
  more: { id: 'app.nav.more', defaultMessage: 'More' },
  alertManagement: { id: 'app.nav.alertManagement', defaultMessage: 'Alert Management' },
  reportIncident: { id: 'app.nav.reportIncident', defaultMessage: 'Report Incident' },
  myAlerts: { id: 'app.nav.myAlerts', defaultMessage: 'My Alerts' },
  admin: { id: 'app.nav.admin', defaultMessage: 'Admin' },
  createAlert: { id: 'app.nav.createAlert', defaultMessage: 'Create Alert' },
  sentAlerts: { id: 'app.nav.sentAlerts', defaultMessage: 'Sent Alerts' },
  history: { id: 'app.nav.history', defaultMessage: 'History' },
  helpRequests: { id: 'app.nav.helpRequests', defaultMessage: 'Help Requests' },
  moderation: { id: 'app.nav.moderation', defaultMessage: 'Moderation' },
  products: { id: 'app.nav.products', defaultMessage: 'Products' },
  backToDashboard: { id: 'app.nav.backToDashboard', defaultMessage: 'Back to Dashboard' },
});

/** What the shells say around their navigation. */
export const SHELL = defineMessages({
  mainNav: { id: 'app.shell.mainNav', defaultMessage: 'Main' },
  sections: { id: 'app.shell.sections', defaultMessage: 'Sections' },
  openMenu: { id: 'app.shell.openMenu', defaultMessage: 'Open menu' },
  closeMenu: { id: 'app.shell.closeMenu', defaultMessage: 'Close menu' },
  menu: { id: 'app.shell.menu', defaultMessage: 'Menu' },
  skipToContent: { id: 'app.shell.skipToContent', defaultMessage: 'Skip to content' },
  loadingPage: { id: 'app.shell.loadingPage', defaultMessage: 'Loading page' },
  dashboard: { id: 'app.shell.dashboard', defaultMessage: 'Dashboard' },
  dashboardSections: { id: 'app.shell.dashboardSections', defaultMessage: 'Dashboard sections' },
  admin: { id: 'app.shell.admin', defaultMessage: 'Admin' },
  adminSections: { id: 'app.shell.adminSections', defaultMessage: 'Admin sections' },
  adminBrand: { id: 'app.shell.adminBrand', defaultMessage: '{app} Admin' },
  version: { id: 'app.shell.version', defaultMessage: 'v{version}' },
});
