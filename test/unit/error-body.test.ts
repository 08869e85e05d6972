import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors/app-error.ts';
import { MAX_ERROR_BODY_BYTES } from '../../shared/http/echo-limits.ts';
import { errorBody } from '../../shared/http/responses.ts';

/** No error body can approach the 6 MB a Lambda may answer, whatever an error carries. */
describe('errorBody', () => {
  it('renders the standard and the bare envelope', () => {
    const error = new AppError('rest_invalid_param', 400, 'Invalid parameter(s): a', {
      params: { a: 'bad' },
    });
    expect(errorBody(error)).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): a',
      data: { status: 400, params: { a: 'bad' } },
    });
    expect(errorBody(error, 'bare')).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): a',
    });
  });

  it.each(['standard', 'bare'] as const)(
    'keeps code and status and cuts the rest of a %s body that would be too large',
    (envelope) => {
      const huge = 'x'.repeat(3 * 1024 * 1024);
      const error = new AppError('some_code', 409, `Conflict with ${huge}`, {
        params: { [huge]: huge },
        details: { step: huge, completed: 1, total: 2 },
      });
      const body = errorBody(error, envelope);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
      expect(body.code).toBe('some_code');
      expect(String(body.message)).toMatch(/^Conflict with x+…$/);
      if (envelope === 'standard') expect(body.data).toEqual({ status: 409 });
      else expect(body).not.toHaveProperty('details');
    },
  );
});
