export * from './annotations';
export * from './check';
export * from './document';
export * from './merge';
export { DEFAULT_ROUTE_ACCESS, discoverRoutes } from './routes';
export type { DiscoveredRoute, RouteArgument } from './routes';
export * from './schema-types';
export * from './serve';
