import { generateResponseSchemas, writeResponseSchemas } from './testing/response-schemas';
import { RESPONSE_SCHEMAS } from './response-schemas.generated';

/*
 * The response schemas the services serve are generated from the TypeScript declarations in libs/contracts and
 * committed (services run compiled code without the compiler). This spec fails when they no longer match;
 * OPENAPI_WRITE=1 writes them again.
 */
describe('response schemas generated from libs/contracts', () => {
  it('are what the committed file holds', () => {
    const fresh = generateResponseSchemas();
    if (process.env.OPENAPI_WRITE === '1') writeResponseSchemas();
    else expect(RESPONSE_SCHEMAS).toEqual(fresh);
  });
});
