import { IsOptional, IsString } from 'class-validator';
import { BaseEnv, portRule, Rules } from '@beacon/common';

export class GatewayEnv extends BaseEnv {
  @Rules(...portRule('GATEWAY_PORT'))
  GATEWAY_PORT: number = 3005;

  /** Extra browser origins allowed to open sockets directly (comma-separated); empty when everything goes through the edge. */
  @IsOptional()
  @IsString({ message: 'SOCKET_CORS_ORIGINS must be a comma-separated list of origins' })
  SOCKET_CORS_ORIGINS = '';
}
