export { DashboardHomePage } from './DashboardHomePage';
export { ActivityPage } from './ActivityPage';
