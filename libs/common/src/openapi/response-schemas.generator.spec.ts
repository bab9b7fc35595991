import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResponseSchemas } from './schema-types';

const GENERATOR = join(__dirname, '../../../../scripts/openapi/response-schemas.mjs');

/** What the build-time generator (scripts/openapi/response-schemas.mjs) makes of the `ApiResponses` map in `file`. */
const generateResponseSchemas = (file: string): ResponseSchemas =>
  JSON.parse(execFileSync(process.execPath, [GENERATOR, '--print', file], { encoding: 'utf8' }));

/** The TypeScript-to-JSON-Schema translation the response schemas rely on, on the kinds of types contracts use. */
describe('generateResponseSchemas', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'beacon-openapi-')), 'api-responses.ts');
  writeFileSync(
    file,
    `
    const LEVELS = ['low', 'high'] as const;
    type Level = (typeof LEVELS)[number];
    interface Row {
      /** The row's id. */
      id: string;
      level: Level;
      note: string | null;
      seen?: boolean;
      at: Date;
      tags: readonly string[];
      extra: Record<string, number>;
      count: 3;
      run(): void;
    }
    export interface ApiResponses {
      Row: Row;
      Rows: { items: Row[] };
      Either: { ok: true } | { ok: false; error: string };
    }
    `,
  );
  const { types } = generateResponseSchemas(file);

  it('translates fields, optional ones, null, literals, dates, arrays and records, and skips methods', () => {
    expect(types.Row).toEqual({
      type: 'object',
      properties: {
        id: { description: "The row's id.", type: 'string' },
        level: { type: 'string', enum: ['low', 'high'] },
        note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        seen: { type: 'boolean' },
        at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        extra: { type: 'object', properties: {}, additionalProperties: { type: 'number' } },
        count: { type: 'number', const: 3 },
      },
      required: ['id', 'level', 'note', 'at', 'tags', 'extra', 'count'],
    });
  });

  it('translates nested types and unions of objects', () => {
    expect(types.Rows).toEqual({ type: 'object', properties: { items: { type: 'array', items: types.Row } }, required: ['items'] });
    expect(types.Either).toEqual({
      anyOf: [
        { type: 'object', properties: { ok: { type: 'boolean', const: true } }, required: ['ok'] },
        { type: 'object', properties: { ok: { type: 'boolean', const: false }, error: { type: 'string' } }, required: ['ok', 'error'] },
      ],
    });
  });
});
