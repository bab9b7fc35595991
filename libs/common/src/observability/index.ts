export { metricsEndpoint, httpMetrics, requestContext } from './http';
export {
  exposeMetrics,
  METRIC_FAMILIES,
  metricsRegistry,
  recordDelivery,
  SERVICE_LABEL,
  socketConnected,
  socketDisconnected,
  startMetrics,
  watchQueueDepth,
} from './metrics';
export type { MetricFamily } from './metrics';
export { observeProvider } from './providers';
export { currentRequestId, isValidRequestId, logLine, propagateRequestContext, REQUEST_ID_HEADER, requestIdFrom } from './request-context';
export { jobRequestId, runJob, takeJobContext, withJobContext } from './jobs';
export { currentTraceId, flushTracing, startTracing } from './tracing';
