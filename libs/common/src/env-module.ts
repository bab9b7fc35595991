import { DynamicModule, Global, Module } from '@nestjs/common';

/** Makes the validated env injectable by its class: `constructor(private readonly env: AlertsEnv)`. */
@Global()
@Module({})
export class EnvModule {
  static forRoot<E extends object>(env: E): DynamicModule {
    return { module: EnvModule, providers: [{ provide: env.constructor, useValue: env }], exports: [env.constructor] };
  }
}
