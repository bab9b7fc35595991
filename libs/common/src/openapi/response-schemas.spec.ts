import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { RESPONSE_SCHEMAS } from './response-schemas.generated';

/*
 * The response schemas the services serve are generated from the TypeScript declarations in libs/contracts by a
 * build-time script and committed (services run compiled code without the compiler). This spec fails when they no
 * longer match, and says how to write them again.
 */
const GENERATOR = join(__dirname, '../../../../scripts/openapi/response-schemas.mjs');

describe('response schemas generated from libs/contracts', () => {
  it('are what the committed file holds', () => {
    const fresh: unknown = JSON.parse(execFileSync(process.execPath, [GENERATOR, '--print'], { encoding: 'utf8' }));
    try {
      expect(RESPONSE_SCHEMAS).toEqual(fresh);
    } catch (e) {
      throw new Error(
        `libs/common/src/openapi/response-schemas.generated.ts no longer matches libs/contracts/src/api-responses.ts: ` +
          `run \`npm run openapi:write\` and commit the result.\n\n${(e as Error).message}`,
      );
    }
  });
});
