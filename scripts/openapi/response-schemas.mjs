#!/usr/bin/env node
/**
 * Generates the JSON Schemas of the wire types the routes answer from their TypeScript declarations in libs/contracts
 * (the `ApiResponses` map), so a response type is written once. The result is committed as
 * libs/common/src/openapi/response-schemas.generated.ts: the services run compiled code without the compiler, so this
 * generator (which needs `typescript`) is build-time code and no runtime lib imports it. That file's spec fails when it
 * no longer matches the types.
 *
 *   npm run openapi:write                             writes the generated file again
 *   node scripts/openapi/response-schemas.mjs --print [file]  prints the schemas of `file`'s ApiResponses as JSON
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** @typedef {import('../../libs/common/src/openapi/schema-types').JsonSchema} JsonSchema */
/** @typedef {import('../../libs/common/src/openapi/schema-types').ResponseSchemas} ResponseSchemas */

const ROOT = join(import.meta.dirname, '../..');
const RESPONSE_TYPES_FILE = join(ROOT, 'libs/contracts/src/api-responses.ts');
const GENERATED_FILE = join(ROOT, 'libs/common/src/openapi/response-schemas.generated.ts');

class SchemaWriter {
  /** @type {Record<string, JsonSchema>} */
  components = {};
  #inProgress = new Set();

  /** @param {import('typescript').TypeChecker} checker */
  constructor(checker) {
    this.checker = checker;
  }

  /** A named, non-generic interface or alias declared in contracts becomes a component; anything else is inlined. */
  #componentName(type) {
    if (type.aliasSymbol && !type.aliasTypeArguments?.length) return this.#ownName(type.aliasSymbol);
    if (type.flags & ts.TypeFlags.Object && type.objectFlags & ts.ObjectFlags.Interface) {
      if (!type.typeParameters?.length) return this.#ownName(type.symbol);
    }
    return undefined;
  }

  #ownName(symbol) {
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
    return file.includes('/libs/contracts/src/') ? symbol.getName() : undefined;
  }

  /** @returns {JsonSchema} */
  schema(type) {
    const name = this.#componentName(type);
    if (name) {
      if (!this.components[name] && !this.#inProgress.has(name)) {
        this.#inProgress.add(name);
        this.components[name] = this.#describe(this.#inline(type), type.aliasSymbol ?? type.symbol);
        this.#inProgress.delete(name);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.#inline(type);
  }

  #describe(schema, symbol) {
    const doc = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim() : '';
    return doc && !schema.$ref ? { description: doc, ...schema } : schema;
  }

  #inline(type) {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Never) return { not: {} };
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: type.value };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: type.value };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: this.checker.typeToString(type) === 'true' };
    if (type.isUnion()) return this.#union(type.types);
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const [element] = this.checker.getTypeArguments(type);
      return { type: 'array', items: element ? this.schema(element) : {} };
    }
    if (type.symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return this.#object(type);
    throw new Error(`no JSON Schema for the type ${this.checker.typeToString(type)}`);
  }

  #union(members) {
    const present = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const strings = present.filter((t) => t.flags & ts.TypeFlags.StringLiteral);
    const booleans = present.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = present.filter((t) => !(t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.BooleanLiteral)));
    const options = [];
    if (strings.length) options.push({ type: 'string', enum: strings.map((s) => s.value) });
    if (booleans.length === 2) options.push({ type: 'boolean' });
    else for (const b of booleans) options.push(this.#inline(b));
    for (const t of rest) options.push(this.schema(t));
    return options.length === 1 ? options[0] : { anyOf: options };
  }

  #object(type) {
    const properties = {};
    const required = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = this.checker.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length) continue;
      properties[prop.getName()] = this.#describe(this.schema(propType), prop);
      const optional = prop.flags & ts.SymbolFlags.Optional || (declaration && ts.isPropertySignature(declaration) && declaration.questionToken);
      if (!optional) required.push(prop.getName());
    }
    const schema = { type: 'object', properties };
    if (required.length) schema.required = required;
    const index = this.checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (index) schema.additionalProperties = this.schema(index.type);
    return schema;
  }
}

/**
 * The schemas of every type of the `ApiResponses` map, from the TypeScript declarations.
 * @returns {ResponseSchemas}
 */
function generateResponseSchemas(file = RESPONSE_TYPES_FILE) {
  const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const map = source?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'ApiResponses');
  if (!map) throw new Error(`${file} declares no interface ApiResponses`);
  const writer = new SchemaWriter(checker);
  const types = {};
  for (const prop of checker.getPropertiesOfType(checker.getTypeAtLocation(map))) {
    types[prop.getName()] = writer.schema(checker.getTypeOfSymbol(prop));
  }
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return { types: sorted(types), components: sorted(writer.components) };
}

/** Writes the generated module, formatted with the repository's Prettier settings. */
function writeResponseSchemas() {
  const text = [
    '// Generated from libs/contracts/src/api-responses.ts by scripts/openapi/response-schemas.mjs: do not edit.',
    '// After changing a response type: npm run openapi:write',
    "import type { ResponseSchemas } from './schema-types';",
    '',
    `export const RESPONSE_SCHEMAS: ResponseSchemas = ${JSON.stringify(generateResponseSchemas(), null, 2)};`,
    '',
  ].join('\n');
  writeFileSync(GENERATED_FILE, text);
  execFileSync(join(ROOT, 'node_modules/.bin/prettier'), ['--write', GENERATED_FILE], { cwd: ROOT, stdio: 'ignore' });
}

const [mode, file] = process.argv.slice(2);
if (mode === '--print') process.stdout.write(JSON.stringify(generateResponseSchemas(file ?? RESPONSE_TYPES_FILE)));
else if (mode === undefined) writeResponseSchemas();
else {
  process.stderr.write('usage: node scripts/openapi/response-schemas.mjs [--print [file]]\n');
  process.exit(2);
}
