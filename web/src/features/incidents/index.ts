export { ReportIncidentPage } from './ReportIncidentPage';
export { LocationPicker } from './LocationPicker';
