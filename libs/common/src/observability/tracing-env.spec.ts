import { BaseEnv, ConfigError, loadEnv } from '../env';

describe('OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('is off (unset) by default', () => {
    expect(loadEnv(BaseEnv, {}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(loadEnv(BaseEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('takes an http(s) base URL', () => {
    expect(loadEnv(BaseEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
    expect(loadEnv(BaseEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/base/' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'https://otlp.example.com/base/',
    );
  });

  it.each(['otel-collector:4318', 'grpc://otel:4317', 'http://otel:4318/?x=1', 'http://otel 4318'])('refuses %s with one line naming the variable', (value) => {
    expect(() => loadEnv(BaseEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: value })).toThrow(ConfigError);
    expect(() => loadEnv(BaseEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: value })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
  });
});
