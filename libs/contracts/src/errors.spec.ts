import {
  ALERT_ERROR_CODES,
  COMMON_ERROR_CODES,
  IDENTITY_ERROR_CODES,
  INCIDENT_ERROR_CODES,
  isErrorCode,
  STORE_ERROR_CODES,
  TRAFFIC_ERROR_CODES,
} from './errors';

const FEATURES = { alerts: ALERT_ERROR_CODES, incidents: INCIDENT_ERROR_CODES, store: STORE_ERROR_CODES, traffic: TRAFFIC_ERROR_CODES };

describe('error codes', () => {
  it.each(Object.entries({ common: COMMON_ERROR_CODES, ...FEATURES, identity: IDENTITY_ERROR_CODES }))('%s: snake_case, each once', (_, codes) => {
    for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('a feature code means one thing: no two features, and no feature and the common set, share one', () => {
    const owner = new Map<string, string>(COMMON_ERROR_CODES.map((c) => [c, 'common']));
    for (const [feature, codes] of Object.entries(FEATURES)) {
      for (const code of codes) {
        expect({ code, feature, alreadyIn: owner.get(code) }).toEqual({ code, feature, alreadyIn: undefined });
        owner.set(code, feature);
      }
    }
  });

  it('knows every listed code, and not an unknown one or a non-string', () => {
    for (const code of [...COMMON_ERROR_CODES, ...Object.values(FEATURES).flat(), ...IDENTITY_ERROR_CODES, 'network_error'])
      expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('made_up_code')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});
