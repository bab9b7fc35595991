/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as loosely as the document needs it. */
export interface JsonSchema {
  [keyword: string]: unknown;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
}

/** The response schemas generated from libs/contracts: one per `ApiResponses` name, and the named types they use. */
export interface ResponseSchemas {
  types: Record<string, JsonSchema>;
  components: Record<string, JsonSchema>;
}
