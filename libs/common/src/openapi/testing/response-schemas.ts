import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { JsonSchema, ResponseSchemas } from '../schema-types';

/*
 * Generates the JSON Schemas of the wire types the routes answer from their TypeScript declarations in libs/contracts
 * (the `ApiResponses` map), so a response type is written once. The result is committed as
 * response-schemas.generated.ts (services run compiled code without the compiler); its spec fails when the file no
 * longer matches the types, and `OPENAPI_WRITE=1` with that spec writes it again.
 */

const ROOT = join(__dirname, '../../../../..');
export const RESPONSE_TYPES_FILE = join(ROOT, 'libs/contracts/src/api-responses.ts');
export const GENERATED_FILE = join(__dirname, '..', 'response-schemas.generated.ts');

class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};
  private readonly inProgress = new Set<string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** A named, non-generic interface or alias declared in contracts becomes a component; anything else is inlined. */
  private componentName(type: ts.Type): string | undefined {
    if (type.aliasSymbol && !type.aliasTypeArguments?.length) return this.ownName(type.aliasSymbol);
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Interface) {
      const params = (type as ts.InterfaceType).typeParameters;
      if (!params?.length) return this.ownName(type.symbol);
    }
    return undefined;
  }

  private ownName(symbol: ts.Symbol): string | undefined {
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
    return file.includes('/libs/contracts/src/') ? symbol.getName() : undefined;
  }

  schema(type: ts.Type): JsonSchema {
    const name = this.componentName(type);
    if (name) {
      if (!this.components[name] && !this.inProgress.has(name)) {
        this.inProgress.add(name);
        const described = this.describe(this.inline(type), type.aliasSymbol ?? type.symbol);
        this.components[name] = described;
        this.inProgress.delete(name);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.inline(type);
  }

  private describe(schema: JsonSchema, symbol: ts.Symbol | undefined): JsonSchema {
    const doc = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim() : '';
    return doc && !schema.$ref ? { description: doc, ...schema } : schema;
  }

  private inline(type: ts.Type): JsonSchema {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Never) return { not: {} };
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: this.checker.typeToString(type) === 'true' };
    if (type.isUnion()) return this.union(type.types);
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: element ? this.schema(element) : {} };
    }
    if (type.symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return this.object(type);
    throw new Error(`no JSON Schema for the type ${this.checker.typeToString(type)}`);
  }

  private union(members: ts.Type[]): JsonSchema {
    const present = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const strings = present.filter((t) => t.flags & ts.TypeFlags.StringLiteral) as ts.StringLiteralType[];
    const booleans = present.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = present.filter((t) => !(t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.BooleanLiteral)));
    const options: JsonSchema[] = [];
    if (strings.length) options.push({ type: 'string', enum: strings.map((s) => s.value) });
    if (booleans.length === 2) options.push({ type: 'boolean' });
    else for (const b of booleans) options.push(this.inline(b));
    for (const t of rest) options.push(this.schema(t));
    return options.length === 1 ? options[0] : { anyOf: options };
  }

  private object(type: ts.Type): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = this.checker.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length) continue;
      properties[prop.getName()] = this.describe(this.schema(propType), prop);
      const optional = prop.flags & ts.SymbolFlags.Optional || (declaration && ts.isPropertySignature(declaration) && declaration.questionToken);
      if (!optional) required.push(prop.getName());
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    const index = this.checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (index) schema.additionalProperties = this.schema(index.type);
    return schema;
  }
}

/** The schemas of every type of the `ApiResponses` map, from the TypeScript declarations. */
export function generateResponseSchemas(file = RESPONSE_TYPES_FILE): ResponseSchemas {
  const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const map = source?.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ApiResponses');
  if (!map) throw new Error(`${file} declares no interface ApiResponses`);
  const writer = new SchemaWriter(checker);
  const types: Record<string, JsonSchema> = {};
  for (const prop of checker.getPropertiesOfType(checker.getTypeAtLocation(map))) {
    types[prop.getName()] = writer.schema(checker.getTypeOfSymbol(prop));
  }
  const sorted = (o: Record<string, JsonSchema>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return { types: sorted(types), components: sorted(writer.components) };
}

/** Writes the generated module, formatted with the repository's Prettier settings. */
export function writeResponseSchemas() {
  const text = [
    '// Generated from libs/contracts/src/api-responses.ts by libs/common/src/openapi/testing/response-schemas.ts: do not edit.',
    '// After changing a response type: OPENAPI_WRITE=1 npx jest libs/common/src/openapi/response-schemas.spec.ts',
    "import type { ResponseSchemas } from './schema-types';",
    '',
    `export const RESPONSE_SCHEMAS: ResponseSchemas = ${JSON.stringify(generateResponseSchemas(), null, 2)};`,
    '',
  ].join('\n');
  writeFileSync(GENERATED_FILE, text);
  execFileSync(join(ROOT, 'node_modules/.bin/prettier'), ['--write', GENERATED_FILE], { cwd: ROOT, stdio: 'ignore' });
}
