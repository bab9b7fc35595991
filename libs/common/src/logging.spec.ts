import { redactUrl } from './logging';

describe('redactUrl', () => {
  it('hides mail-link tokens and keys but keeps the rest of the query', () => {
    expect(redactUrl('/auth/v1/verify?token=abc123&type=recovery&redirect_to=/x')).toBe('/auth/v1/verify?token=[redacted]&type=recovery&redirect_to=/x');
    expect(redactUrl('/x?page=2&key=s3cr3t')).toBe('/x?page=2&key=[redacted]');
    expect(redactUrl('/api/alerts?search=storm')).toBe('/api/alerts?search=storm');
  });
});
