export { ReportIncidentPage } from './ReportIncidentPage';
