export { metricsEndpoint, httpMetrics, requestContext } from './http';
export { metricsRegistry, recordDelivery, socketConnected, socketDisconnected, startMetrics, watchQueueDepth } from './metrics';
export { observeProvider } from './providers';
export { currentRequestId, isValidRequestId, logLine, propagateRequestContext, REQUEST_ID_HEADER, requestIdFrom } from './request-context';
export { jobRequestId, runJob, takeJobContext, withJobContext } from './jobs';
export { currentTraceId, flushTracing, startTracing } from './tracing';
