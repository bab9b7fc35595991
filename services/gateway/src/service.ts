import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { GatewayEnv } from './config/env.dto';
import { SocketGateway } from './socket/socket.gateway';

export const gatewayService: ServiceDefinition<GatewayEnv> = {
  name: 'gateway',
  envClass: GatewayEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.GATEWAY_PORT,
  // Socket.IO shares the HTTP server (and port) with /health and /ready.
  configure: (app) => app.get(SocketGateway).attach(app.getHttpServer()),
};
