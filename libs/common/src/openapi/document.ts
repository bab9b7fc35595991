import { ParseIntPipe, ParseUUIDPipe, Type } from '@nestjs/common';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { ApiErrorBody, ApiResponses } from '@beacon/contracts';
import type { ErrorBody } from '../errors';
import { API_ACCESS, RouteAccess } from './annotations';
import { DiscoveredRoute } from './routes';
import { RESPONSE_SCHEMAS } from './response-schemas.generated';
import type { JsonSchema } from './schema-types';

// class-transformer's @Type registry (which class a nested field holds); its typed entry point does not export it
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** The document's error schema is generated from ApiErrorBody: the compiler keeps it the shape ErrorBody really has. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _errorBodyDocumented: Same<ErrorBody, ApiErrorBody> = true;

export const BEARER_SCHEME = 'bearerAuth';
const REF_PREFIX = '#/components/schemas/';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary?: string;
  security: Record<string, string[]>[];
  'x-beacon-access': RouteAccess;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<string, OpenApiOperation>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface ServiceDocumentOptions {
  service: string;
  version: string;
  /** The body of this service's errors (default ApiErrorBody; the auth API has its own). */
  errorType?: keyof ApiResponses;
}

const SECURITY: Record<RouteAccess, Record<string, string[]>[]> = {
  public: [],
  optional: [{}, { [BEARER_SCHEME]: [] }],
  user: [{ [BEARER_SCHEME]: [] }],
  // OpenAPI 3.1 lets a non-OAuth scheme list the roles a route needs
  admin: [{ [BEARER_SCHEME]: ['admin'] }],
};

const ACCESS_NOTE: Record<RouteAccess, string> = {
  public: 'No token needed.',
  optional: 'Works without a token; with one, the answer is the caller\u2019s view.',
  user: 'Needs a bearer access token.',
  admin: 'Administrators only: a bearer access token whose app_metadata.role is admin.',
};

export const securitySchemes = () => ({
  [BEARER_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An ES256 access token from POST /auth/v1/token, verified against /auth/v1/.well-known/jwks.json.',
  },
});

/** JSON Schemas of the request DTOs, derived from their class-validator rules (the DTO is the only source). */
class RequestSchemas {
  readonly components: Record<string, JsonSchema> = {};
  private readonly classes = new Map<string, Type<unknown>>();

  ref(dto: Type<unknown>): JsonSchema {
    this.add(dto);
    return { $ref: `${REF_PREFIX}${dto.name}` };
  }

  schemaOf(dto: Type<unknown>): JsonSchema {
    this.add(dto);
    return this.components[dto.name];
  }

  private add(dto: Type<unknown>) {
    const known = this.classes.get(dto.name);
    if (known === dto) return;
    if (known) throw new Error(`two request DTOs of one service are called ${dto.name}: rename one`);
    this.classes.set(dto.name, dto);
    const schema = targetConstructorToSchema(dto, { refPointerPrefix: REF_PREFIX, classTransformerMetadataStorage: defaultMetadataStorage }) as JsonSchema;
    this.components[dto.name] = schema;
    // nested DTOs (@ValidateNested with @Type) are referenced by name: add their schemas too
    for (const property of Object.keys(schema.properties ?? {})) {
      const nested = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction();
      if (typeof nested === 'function' && nested !== Number && nested !== String && nested !== Boolean && nested !== Date && nested.name) {
        this.add(nested as Type<unknown>);
      }
    }
  }
}

function primitiveSchema(type: Type<unknown> | undefined): JsonSchema {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  return {};
}

function pathParamSchema(route: DiscoveredRoute, name: string): JsonSchema {
  const arg = route.args.find((a) => a.in === 'path' && a.name === name);
  const pipes = arg?.pipes ?? [];
  if (pipes.some((p) => p instanceof ParseUUIDPipe || p === ParseUUIDPipe)) {
    return { type: 'string', format: 'uuid' };
  }
  if (pipes.some((p) => p instanceof ParseIntPipe || p === ParseIntPipe)) return { type: 'integer' };
  return primitiveSchema(arg?.type);
}

function parametersOf(route: DiscoveredRoute, requests: RequestSchemas): OpenApiParameter[] {
  const params: OpenApiParameter[] = [];
  for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) params.push({ name, in: 'path', required: true, schema: pathParamSchema(route, name) });
  for (const arg of route.args) {
    if (arg.in === 'query' && arg.name) params.push({ name: arg.name, in: 'query', required: false, schema: primitiveSchema(arg.type) });
    if (arg.in === 'query' && !arg.name && arg.type && arg.type !== Object) {
      const schema = requests.schemaOf(arg.type);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        params.push({ name, in: 'query', required: (schema.required ?? []).includes(name), schema: property });
      }
    }
    if (arg.in === 'header' && arg.name) params.push({ name: arg.name.toLowerCase(), in: 'header', required: false, schema: { type: 'string' } });
  }
  return params;
}

function requestBodyOf(route: DiscoveredRoute, requests: RequestSchemas): OpenApiOperation['requestBody'] {
  const file = route.args.find((a) => a.in === 'file');
  if (file) {
    const field = file.name ?? 'file';
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { [field]: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: [field] },
        },
      },
    };
  }
  const body = route.args.find((a) => a.in === 'body');
  if (!body) return undefined;
  const schema = body.type && body.type !== Object ? requests.ref(body.type) : {};
  return { required: true, content: { 'application/json': { schema: body.name ? { type: 'object', properties: { [body.name]: schema } } : schema } } };
}

function responsesOf(route: DiscoveredRoute, errorType: keyof ApiResponses): OpenApiOperation['responses'] {
  const response = route.response!;
  const error = { description: 'An error', content: { 'application/json': { schema: RESPONSE_SCHEMAS.types[errorType] } } };
  switch (response.kind) {
    case 'json': {
      const content = { 'application/json': { schema: RESPONSE_SCHEMAS.types[response.type] } };
      const statuses = [response.status ?? route.status, ...(response.alsoStatus ?? [])];
      return { ...Object.fromEntries(statuses.map((s) => [String(s), { description: response.type, content }])), default: error };
    }
    case 'file':
      return {
        [String(response.status ?? route.status)]: { description: response.contentType, content: { [response.contentType]: { schema: { type: 'string' } } } },
        default: error,
      };
    case 'redirect':
      return {
        [String(response.status)]: { description: 'A redirect', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        default: error,
      };
    case 'empty':
      return { [String(response.status ?? (route.status === 200 ? 204 : route.status))]: { description: 'No content' }, default: error };
  }
}

/** The schema names a schema refers to ($ref), transitively through `schemas`. */
function referencedNames(schema: unknown, schemas: Record<string, JsonSchema>, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) referencedNames(s, schemas, found);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        const name = value.slice(REF_PREFIX.length);
        if (!found.has(name)) {
          found.add(name);
          referencedNames(schemas[name], schemas, found);
        }
      } else referencedNames(value, schemas, found);
    }
  }
  return found;
}

export interface ServiceDocument {
  document: OpenApiDocument;
  /** Routes left out because they say nothing of what they answer (no @ApiReturns, @ApiFile, @ApiRedirect, @ApiNoContent). */
  undocumented: DiscoveredRoute[];
}

/**
 * The OpenAPI 3.1 document of one service's routes: paths and methods from Nest's route metadata, parameters and
 * request bodies from the DTOs' class-validator rules, responses from the routes' response annotations (schemas
 * generated from libs/contracts), security from the auth metadata.
 */
export function buildServiceDocument(routes: DiscoveredRoute[], options: ServiceDocumentOptions): ServiceDocument {
  const requests = new RequestSchemas();
  const paths: OpenApiDocument['paths'] = {};
  const undocumented: DiscoveredRoute[] = [];
  const errorType = options.errorType ?? 'ApiErrorBody';
  for (const route of routes) {
    if (!route.response) {
      undocumented.push(route);
      continue;
    }
    if (route.ownGuards && (route.access === 'public' || route.access === 'optional')) {
      const handler = (route.controller.prototype as Record<string, object>)[route.handlerName];
      const explicit = Reflect.getMetadata(API_ACCESS, handler) ?? Reflect.getMetadata(API_ACCESS, route.controller);
      if (!explicit) {
        throw new Error(
          `${route.controller.name}.${route.handlerName} has a guard of its own but no @ApiAccess: say who may call it, or the document would call it ${route.access}`,
        );
      }
    }
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is declared twice (${route.controller.name}.${route.handlerName})`);
    const operation: OpenApiOperation = {
      operationId: `${options.service}.${route.controller.name}.${route.handlerName}`,
      tags: [options.service],
      summary: ACCESS_NOTE[route.access],
      security: SECURITY[route.access],
      'x-beacon-access': route.access,
      parameters: parametersOf(route, requests),
      responses: responsesOf(route, errorType),
    };
    const body = requestBodyOf(route, requests);
    if (body) operation.requestBody = body;
    item[route.method] = operation;
  }
  const available: Record<string, JsonSchema> = { ...RESPONSE_SCHEMAS.components };
  for (const [name, schema] of Object.entries(requests.components)) {
    if (available[name]) throw new Error(`the request DTO ${name} has the name of a response type in libs/contracts: rename one`);
    available[name] = schema;
  }
  const used = referencedNames(paths, available);
  const schemas = Object.fromEntries([...used].sort().map((name) => [name, available[name]]));
  return {
    document: {
      openapi: '3.1.0',
      info: { title: `Beacon ${options.service} API`, version: options.version },
      tags: [{ name: options.service }],
      paths,
      components: { schemas, securitySchemes: securitySchemes() },
    },
    undocumented,
  };
}
