import express from 'express';
import request from 'supertest';
import { httpMetrics, metricsEndpoint, requestContext } from './http';
import { currentRequestId } from './request-context';

function app() {
  const a = express();
  a.use(httpMetrics, metricsEndpoint);
  a.use(express.json());
  a.use(requestContext);
  a.get('/api/things/:id', (_req, res) => {
    res.json({ requestId: currentRequestId() });
  });
  a.post('/api/things', (_req, res) => {
    res.status(201).json({});
  });
  return a;
}

describe('HTTP telemetry', () => {
  it('counts requests by route template and status, never by the raw URL', async () => {
    const a = app();
    await request(a).get('/api/things/secret-id-1').expect(200);
    await request(a).get('/api/things/secret-id-2').expect(200);
    await request(a).post('/api/things').send({}).expect(201);
    await request(a).get('/no/such/path/anywhere').expect(404);
    const text = (await request(a).get('/metrics').expect(200)).text;
    expect(text).toMatch(/beacon_http_requests_total\{method="GET",route="\/api\/things\/:id",status_code="200"\} 2\n/);
    expect(text).toMatch(/beacon_http_requests_total\{method="POST",route="\/api\/things",status_code="201"\} 1\n/);
    expect(text).toMatch(/beacon_http_requests_total\{method="GET",route="unmatched",status_code="404"\} 1\n/);
    expect(text).not.toContain('secret-id');
    expect(text).not.toContain('/no/such/path');
  });

  it('counts a body the parser refused under its status', async () => {
    const a = app();
    await request(a).post('/api/things').set('content-type', 'application/json').send('{not json').expect(400);
    const text = (await request(a).get('/metrics').expect(200)).text;
    expect(text).toMatch(/beacon_http_requests_total\{method="POST",route="unmatched",status_code="400"\} 1\n/);
  });

  it('serves the metrics only at exactly GET /metrics', async () => {
    const a = app();
    await request(a).post('/metrics').expect(404);
    await request(a).get('/metrics/extra').expect(404);
    const res = await request(a).get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
  });

  it('answers with the caller’s valid request id, runs the handler in it, and replaces an invalid one', async () => {
    const a = app();
    const kept = await request(a).get('/api/things/1').set('x-request-id', 'edge-made-id-42').expect(200);
    expect(kept.headers['x-request-id']).toBe('edge-made-id-42');
    expect(kept.body).toEqual({ requestId: 'edge-made-id-42' });
    const replaced = await request(a).get('/api/things/1').set('x-request-id', 'no good').expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body).toEqual({ requestId: replaced.headers['x-request-id'] });
  });
});
