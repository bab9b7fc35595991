import { HttpException } from '@nestjs/common';
import { AppError, badRequest, toErrorBody } from './errors';

describe('AppError', () => {
  it('renders its status, code and message as the error body', () => {
    expect(toErrorBody(badRequest('Expiry must be in the future', 'expiry_in_past'))).toEqual({
      statusCode: 400,
      code: 'expiry_in_past',
      message: 'Expiry must be in the future',
    });
  });

  it('takes only a code of the contract (checked by `npm run typecheck`, which fails if this line compiles)', () => {
    // @ts-expect-error a code that no feature declares in libs/contracts errors.ts
    const unknown = new AppError(400, 'made_up_code', 'x');
    expect(unknown.code).toBe('made_up_code');
  });

  it('gives body-parser failures the contract codes', () => {
    expect(toErrorBody({ status: 400, type: 'entity.parse.failed' }).code).toBe('malformed_json');
    expect(toErrorBody({ status: 413, type: 'entity.too.large' }).code).toBe('payload_too_large');
  });

  it('reads a body-parser failure that NestJS handed over inside an HttpException as the failure itself', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });
    expect(toErrorBody(new HttpException(tooLarge.message, 413, { cause: tooLarge }))).toEqual({
      statusCode: 413,
      code: 'payload_too_large',
      message: 'The request body is too large',
    });
  });
});
