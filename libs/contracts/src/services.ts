/** The services, their default ports and the path prefix the edge forwards to them unchanged. */
export const SERVICES = {
  identity: { port: 3001, prefix: '/auth/v1' },
  incidents: { port: 3002, prefix: '/api/incidents' },
  store: { port: 3003, prefix: '/api/store' },
  alerts: { port: 3004, prefix: '/api/alerts' },
  gateway: { port: 3005, prefix: '/socket.io' },
  traffic: { port: 3007, prefix: '/api/traffic' },
  dispatcher: { port: 3006, prefix: null },
} as const;
export type ServiceName = keyof typeof SERVICES;

/**
 * Each service's compiled entry point under dist/. The dispatcher is the alerts tree's second entry point (one tree per
 * schema), still a process, image and Deployment of its own.
 */
export const serviceEntry = (name: ServiceName) => (name === 'dispatcher' ? 'services/alerts/src/dispatcher.main.js' : `services/${name}/src/main.js`);
