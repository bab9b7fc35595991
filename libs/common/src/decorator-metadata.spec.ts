import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';

@Injectable()
class Clock {
  now() {
    return 42;
  }
}

@Injectable()
class NeedsClock {
  constructor(readonly clock: Clock) {}
}

// Nest resolves constructor dependencies from emitted `design:paramtypes`; if the transformer drops
// decorator metadata, every service in Beacon fails to start. The build (tsc) side is proven by
// infra/services.integration-spec.ts, which boots the compiled services.
describe('decorator metadata', () => {
  it('is emitted for constructor parameters', () => {
    expect(Reflect.getMetadata('design:paramtypes', NeedsClock)).toEqual([Clock]);
  });

  it('lets Nest inject by type', async () => {
    const mod = await Test.createTestingModule({ providers: [Clock, NeedsClock] }).compile();
    expect(mod.get(NeedsClock).clock.now()).toBe(42);
  });
});
