import { isDeepStrictEqual } from 'node:util';
import { OpenApiDocument, SERVERS, securitySchemes } from './document';
import type { JsonSchema } from './schema-types';

const REF_PREFIX = '#/components/schemas/';

function renameRefs<T>(value: T, renames: Map<string, string>): T {
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, renames)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        if (key === '$ref' && typeof v === 'string' && v.startsWith(REF_PREFIX)) {
          const name = v.slice(REF_PREFIX.length);
          return [key, `${REF_PREFIX}${renames.get(name) ?? name}`];
        }
        return [key, renameRefs(v, renames)];
      }),
    ) as T;
  }
  return value;
}

/**
 * One document for the whole public API from the services' own. Paths never overlap (each service owns its prefix),
 * nor do operationIds; a schema name two services use for different schemas is kept apart as `<service>.<name>` in
 * the later one. The shared responses (components.responses) are the same in every part.
 */
export function mergeDocuments(parts: { service: string; document: OpenApiDocument }[], info: OpenApiDocument['info']): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.1.0',
    info,
    servers: SERVERS,
    tags: [],
    paths: {},
    components: { schemas: {}, responses: {}, securitySchemes: securitySchemes() },
  };
  const operationIds = new Map<string, string>();
  for (const { service, document } of parts) {
    for (const [name, response] of Object.entries(document.components?.responses ?? {})) {
      const existing = merged.components.responses![name];
      if (existing && !isDeepStrictEqual(existing, response)) throw new Error(`the shared response ${name} of ${service} differs from the others'`);
      merged.components.responses![name] = response;
    }
    const renames = new Map<string, string>();
    const schemas: Record<string, JsonSchema> = document.components?.schemas ?? {};
    for (const [name, schema] of Object.entries(schemas)) {
      const existing = merged.components.schemas[name];
      if (existing && !isDeepStrictEqual(existing, schema)) renames.set(name, `${service}.${name}`);
    }
    for (const [name, schema] of Object.entries(renameRefs(schemas, renames))) merged.components.schemas[renames.get(name) ?? name] = schema;
    for (const [path, item] of Object.entries(renameRefs(document.paths, renames))) {
      if (merged.paths[path]) throw new Error(`${path} is served by two services (the second: ${service})`);
      for (const operation of Object.values(item)) {
        const other = operationIds.get(operation!.operationId);
        if (other) throw new Error(`operationId ${operation!.operationId} is used by ${other} and ${service}`);
        operationIds.set(operation!.operationId, service);
      }
      merged.paths[path] = item;
    }
    merged.tags!.push(...(document.tags ?? [{ name: service }]));
  }
  merged.components.schemas = Object.fromEntries(Object.entries(merged.components.schemas).sort(([a], [b]) => a.localeCompare(b)));
  merged.components.responses = Object.fromEntries(Object.entries(merged.components.responses!).sort(([a], [b]) => a.localeCompare(b)));
  return merged;
}
