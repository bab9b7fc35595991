export { ModerationPage } from './ModerationPage';
export { PendingReportsBadge } from './PendingReportsBadge';
