/** The dispatcher is the alerts service's worker: it uses the alerts schema and its migrations. */
export { alertsDatabase as dispatcherDatabase } from '../../alerts/src/database';
