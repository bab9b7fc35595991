// Offline that keeps what it knew (issue #40): the shell's indicator and catch-up, and the offline page of a section.
export { OfflineKeeper } from './OfflineKeeper';
export { RouteErrorOrOffline } from './RouteErrorOrOffline';
export { sectionPage } from './section-page';
