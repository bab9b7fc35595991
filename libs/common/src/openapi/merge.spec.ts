import { OpenApiDocument, securitySchemes } from './document';
import { mergeDocuments } from './merge';

const part = (path: string, schemas: OpenApiDocument['components']['schemas']): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: path, version: '1' },
  paths: {
    [path]: {
      post: {
        operationId: path,
        tags: [],
        security: [],
        'x-beacon-access': 'public',
        parameters: [],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/QueryDto' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Shared' } } } } },
      },
    },
  },
  components: { schemas, securitySchemes: securitySchemes() },
});

describe('mergeDocuments', () => {
  it('keeps one copy of a schema two services share and keeps apart two that only share a name', () => {
    const shared = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const merged = mergeDocuments(
      [
        { service: 'store', document: part('/api/store/x', { Shared: shared, QueryDto: { type: 'object', properties: { a: { type: 'string' } } } }) },
        { service: 'traffic', document: part('/api/traffic/y', { Shared: shared, QueryDto: { type: 'object', properties: { b: { type: 'number' } } } }) },
      ],
      { title: 'all', version: '1' },
    );
    expect(Object.keys(merged.components.schemas)).toEqual(['QueryDto', 'Shared', 'traffic.QueryDto']);
    expect(merged.paths['/api/store/x']!.post!.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/QueryDto' });
    expect(merged.paths['/api/traffic/y']!.post!.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/traffic.QueryDto' });
    expect(merged.components.schemas['traffic.QueryDto'].properties).toEqual({ b: { type: 'number' } });
    expect(merged.paths['/api/traffic/y']!.post!.responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/Shared' });
  });

  it('refuses an operationId two services use, and says where the paths are', () => {
    const store = part('/api/store/x', {});
    const traffic = part('/api/traffic/y', {});
    expect(mergeDocuments([{ service: 'store', document: store }], { title: 'all', version: '1' }).servers).toEqual([
      { url: '/', description: expect.any(String) },
    ]);
    traffic.paths['/api/traffic/y']!.post!.operationId = '/api/store/x';
    expect(() =>
      mergeDocuments(
        [
          { service: 'store', document: store },
          { service: 'traffic', document: traffic },
        ],
        { title: 'all', version: '1' },
      ),
    ).toThrow('operationId /api/store/x is used by store and traffic');
  });

  it('refuses a path two services claim', () => {
    expect(() =>
      mergeDocuments(
        [
          { service: 'store', document: part('/api/x', {}) },
          { service: 'traffic', document: part('/api/x', {}) },
        ],
        { title: 'all', version: '1' },
      ),
    ).toThrow('/api/x is served by two services (the second: traffic)');
  });
});
