import { ParseIntPipe, ParseUUIDPipe, Type } from '@nestjs/common';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { rolesAtLeast, type ApiErrorBody, type ApiResponses, type ErrorCode, type IdentityErrorCode, type StaffRole } from '@beacon/contracts';
import type { ErrorBody } from '../errors';
import { API_ACCESS, ErrorMap, ErrorStatus, mergeErrors, RouteAccess } from './annotations';
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

/** A response, or (`$ref` alone) a reference to one of components.responses. */
export interface OpenApiResponse {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema: JsonSchema }>;
  headers?: Record<string, { description?: string; schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary?: string;
  description?: string;
  security: Record<string, string[]>[];
  'x-beacon-access': RouteAccess;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<string, OpenApiOperation>>>;
  components: { schemas: Record<string, JsonSchema>; responses?: Record<string, OpenApiResponse>; securitySchemes: Record<string, unknown> };
}

export interface ServiceDocumentOptions {
  service: string;
  version: string;
  /** The body of this service's errors (default ApiErrorBody; the auth API has its own). */
  errorType?: keyof ApiResponses;
  /** What the service is for, in a sentence: its tag's description. */
  description?: string;
}

/** Where the paths are: the edge, whose origin serves the document (a relative URL, so it holds for every deployment). */
export const SERVERS = [{ url: '/', description: 'The edge: the origin that serves this document at /api/docs' }];

// OpenAPI 3.1 lets a non-OAuth scheme list the roles a route needs: a staff route lists every role it lets in
const staffSecurity = (min: StaffRole) => [{ [BEARER_SCHEME]: rolesAtLeast(min) }];

const SECURITY: Record<RouteAccess, Record<string, string[]>[]> = {
  public: [],
  optional: [{}, { [BEARER_SCHEME]: [] }],
  user: [{ [BEARER_SCHEME]: [] }],
  viewer: staffSecurity('viewer'),
  publisher: staffSecurity('publisher'),
  approver: staffSecurity('approver'),
  admin: staffSecurity('admin'),
};

const staffNote = (min: StaffRole) =>
  min === 'admin'
    ? 'Administrators only: a bearer access token whose app_metadata.role is admin.'
    : `Staff with the ${min} role or a higher one: a bearer access token whose app_metadata.role is ${rolesAtLeast(min).join(', ')}.`;

const ACCESS_NOTE: Record<RouteAccess, string> = {
  public: 'No token needed.',
  optional: 'Works without a token; with one, the answer is the caller\u2019s view.',
  user: 'Needs a bearer access token.',
  viewer: staffNote('viewer'),
  publisher: staffNote('publisher'),
  approver: staffNote('approver'),
  admin: staffNote('admin'),
};

const STAFF_GUARD_ERRORS: ErrorMap = {
  401: ['token_missing', 'token_expired', 'token_invalid', 'session_revoked'],
  403: ['forbidden'],
  503: ['session_check_unavailable'],
};

/** What libs/auth's token guard answers, by the access of the route (libs/auth/src/guards.ts: AuthGuard, checkSessionLive). */
export const TOKEN_GUARD_ERRORS: Record<RouteAccess, ErrorMap> = {
  public: {},
  // no token is fine; a token that is not valid (or of a session that ended) is refused
  optional: { 401: ['token_expired', 'token_invalid', 'session_revoked'], 503: ['session_check_unavailable'] },
  user: { 401: ['token_missing', 'token_expired', 'token_invalid', 'session_revoked'], 503: ['session_check_unavailable'] },
  viewer: STAFF_GUARD_ERRORS,
  publisher: STAFF_GUARD_ERRORS,
  approver: STAFF_GUARD_ERRORS,
  admin: STAFF_GUARD_ERRORS,
};

/** What the layers every service shares answer (libs/common bootstrap.ts), on the routes they concern. */
export const SHARED_ERRORS = {
  /** RejectNulGuard and RejectNulPipe: a route that reads text from the client (path, query, body). */
  text: { 400: ['invalid_characters'] },
  /** createValidationPipe: a body or query DTO. */
  validation: { 400: ['validation_failed'] },
  /** The JSON body parser: a body that is not JSON, or larger than BODY_LIMITS (the edge refuses it first). */
  jsonBody: { 400: ['malformed_json'], 413: ['payload_too_large'] },
  /** RateLimitInterceptor: @RateLimit. */
  rateLimit: { 429: ['rate_limited'] },
} satisfies Record<string, ErrorMap>;

/**
 * How identity answers an error of the shared layers under /auth/v1: its AuthExceptionFilter
 * (services/identity/src/common/gotrue-error.ts) renames it into the hosted auth API's codes.
 */
export function asAuthApiCode(status: ErrorStatus, code: ErrorCode): IdentityErrorCode {
  if (code === 'malformed_json') return 'bad_json';
  return status === 404 ? 'not_found' : status === 401 ? 'no_authorization' : 'validation_failed';
}

const isDto = (type: Type<unknown> | undefined) => typeof type === 'function' && ![String, Number, Boolean, Object, Array].includes(type as never);

/**
 * Every error a route can answer but the 5xx any route may (see UNEXPECTED): those of the shared layers that concern
 * it (the token guard's for its access, the NUL check, validation, body parsing, the rate limit), in the service's
 * vocabulary, and those of its own guards and code (@ApiGuardErrors, @ApiErrors).
 */
export function routeErrors(route: DiscoveredRoute, errorType: keyof ApiResponses = 'ApiErrorBody'): ErrorMap {
  const body = route.args.some((a) => a.in === 'body');
  const text = route.path.includes('{') || route.args.some((a) => a.in === 'query' || a.in === 'body' || a.in === 'file');
  const validated = route.args.some((a) => (a.in === 'body' || a.in === 'query') && !a.name && isDto(a.type));
  const shared = mergeErrors(
    route.tokenGuard ? TOKEN_GUARD_ERRORS[route.tokenGuard] : undefined,
    text ? SHARED_ERRORS.text : undefined,
    validated ? SHARED_ERRORS.validation : undefined,
    body ? SHARED_ERRORS.jsonBody : undefined,
    route.rateLimited ? SHARED_ERRORS.rateLimit : undefined,
  );
  const own = mergeErrors(route.guardErrors, route.errors);
  if (errorType !== 'AuthApiError' || route.outsidePrefix) return mergeErrors(shared, own);
  const renamed = Object.entries(shared).map(([status, codes]) => ({ [status]: codes.map((c) => asAuthApiCode(Number(status) as ErrorStatus, c)) }));
  return mergeErrors(...renamed, own);
}

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: 'The request is not valid',
  401: 'No valid session',
  403: 'Not allowed',
  404: 'Not found',
  409: 'In conflict with the current state',
  413: 'Too large',
  415: 'Not a supported media type',
  422: 'Cannot be processed',
  429: 'Too many requests',
  502: 'An upstream service failed',
  503: 'Unavailable for now',
};

/** An error body narrowed to one status and its codes. */
function errorSchema(errorType: keyof ApiResponses, status: number, codes: readonly string[]): JsonSchema {
  const narrowed: JsonSchema =
    errorType === 'AuthApiError'
      ? { type: 'object', properties: { code: { enum: [status, ...codes] }, error_code: { enum: [...codes] } } }
      : { type: 'object', properties: { statusCode: { const: status }, code: { enum: [...codes] } } };
  return { allOf: [RESPONSE_SCHEMAS.types[errorType], narrowed] };
}

const UNEXPECTED = 'UnexpectedError';
const AUTH_UNEXPECTED = 'AuthUnexpectedError';

/**
 * The answers any route may give outside its own list: a failure of the service (500), or the edge's 502 when the
 * service cannot be reached or closed the connection (infra/edge.ts).
 */
export const unexpectedResponses = (): Record<string, OpenApiResponse> => ({
  [UNEXPECTED]: {
    description:
      'Something failed: 500 internal_error from the service, or 502 service_unavailable or bad_gateway from the edge when the service cannot answer',
    content: {
      'application/json': {
        schema: {
          allOf: [
            RESPONSE_SCHEMAS.types.ApiErrorBody,
            { type: 'object', properties: { code: { enum: ['internal_error', 'service_unavailable', 'bad_gateway'] } } },
          ],
        },
      },
    },
  },
  [AUTH_UNEXPECTED]: {
    description: 'Something failed: 500 unexpected_failure from the auth API, or 502 service_unavailable or bad_gateway from the edge when it cannot answer',
    content: {
      'application/json': {
        schema: {
          anyOf: [
            errorSchema('AuthApiError', 500, ['unexpected_failure']),
            { allOf: [RESPONSE_SCHEMAS.types.ApiErrorBody, { type: 'object', properties: { code: { enum: ['service_unavailable', 'bad_gateway'] } } }] },
          ],
        },
      },
    },
  },
});

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

function successOf(route: DiscoveredRoute): Record<string, OpenApiResponse> {
  const response = route.response!;
  switch (response.kind) {
    case 'json': {
      const content = { 'application/json': { schema: RESPONSE_SCHEMAS.types[response.type] } };
      return { [String(response.status ?? route.status)]: { description: response.type, content } };
    }
    case 'file':
      return {
        [String(response.status ?? route.status)]: { description: response.contentType, content: { [response.contentType]: { schema: { type: 'string' } } } },
      };
    case 'redirect':
      return { [String(response.status)]: { description: 'A redirect', headers: { Location: { schema: { type: 'string', format: 'uri' } } } } };
    case 'empty':
      return { [String(response.status ?? (route.status === 200 ? 204 : route.status))]: { description: 'No content' } };
  }
}

/** One success response, then each error status the route can answer with its codes, then the unexpected ones. */
function responsesOf(route: DiscoveredRoute, errorType: keyof ApiResponses): OpenApiOperation['responses'] {
  const bodyType = route.outsidePrefix ? 'ApiErrorBody' : errorType;
  const responses: OpenApiOperation['responses'] = successOf(route);
  for (const [status, codes] of Object.entries(routeErrors(route, errorType))) {
    responses[status] = {
      description: `${STATUS_TEXT[Number(status) as ErrorStatus]}: ${codes.join(', ')}`,
      content: { 'application/json': { schema: errorSchema(bodyType, Number(status), codes) } },
    };
  }
  const failure = route.response?.kind === 'json' ? route.response.failure : undefined;
  if (failure && route.response?.kind === 'json') {
    responses[String(failure.status)] = {
      description: failure.description,
      content: { 'application/json': { schema: RESPONSE_SCHEMAS.types[route.response.type] } },
    };
  }
  responses.default = { $ref: `#/components/responses/${bodyType === 'AuthApiError' ? AUTH_UNEXPECTED : UNEXPECTED}` };
  return responses;
}

/** The route's operationId: its @ApiOperation's, or (a route the checks refuse) one made of its class and method. */
export function operationIdOf(route: DiscoveredRoute, service: string): string {
  return route.operation ? route.operation.id.replace('{service}', service) : `${service}.${route.controller.name}.${route.handlerName}`;
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
  const ids = new Set<string>();
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
    const operationId = operationIdOf(route, options.service);
    if (ids.has(operationId)) throw new Error(`operationId ${operationId} is given to two routes (the second: ${route.controller.name}.${route.handlerName})`);
    ids.add(operationId);
    const operation: OpenApiOperation = {
      operationId,
      tags: [options.service],
      summary: route.operation?.summary ?? `${route.controller.name}.${route.handlerName}`,
      description: [route.operation?.description, `Access: ${ACCESS_NOTE[route.access]}`].filter(Boolean).join('\n\n'),
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
  const refs = JSON.stringify(paths);
  const responses = Object.fromEntries(Object.entries(unexpectedResponses()).filter(([name]) => refs.includes(`"#/components/responses/${name}"`)));
  const used = referencedNames([paths, responses], available);
  const schemas = Object.fromEntries([...used].sort().map((name) => [name, available[name]]));
  return {
    document: {
      openapi: '3.1.0',
      info: { title: `Beacon ${options.service} API`, version: options.version },
      servers: SERVERS,
      tags: [{ name: options.service, ...(options.description ? { description: options.description } : {}) }],
      paths,
      components: { schemas, responses, securitySchemes: securitySchemes() },
    },
    undocumented,
  };
}
