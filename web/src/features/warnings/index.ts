// The app-wide warning layer (issue #40): an alert on any page, heard as well as seen. Layouts mount it through
// lazy.tsx, so its code loads only for a signed-in person.
export { WarningLayer } from './WarningLayer';
export { UnreadBadge } from './UnreadBadge';
