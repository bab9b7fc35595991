import { IsOptional, IsString, Matches } from 'class-validator';
import { portRule, Rules } from '@beacon/common';

const url = (name: string) => Matches(/^https?:\/\/\S+$/, { message: `${name} must be an http(s) URL` });

export class EdgeEnv {
  @Rules(...portRule('PORT'))
  PORT: number = 8080;

  @IsString()
  HOST = '0.0.0.0';

  /** The built web app (vite build output). */
  @IsString()
  WEB_DIST = 'web/dist';

  /** Map tile URL template for the browser; `/tiles/{z}/{x}/{y}.png` serves blank tiles from the edge. */
  @Matches(/^(https?:\/\/|\/)\S*\{z\}\S*\{x\}\S*\{y\}\S*$/, { message: 'TILE_URL must be a tile URL template containing {z}, {x} and {y}' })
  TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

  @IsString()
  TILE_ATTRIBUTION = '&copy; OpenStreetMap contributors';

  @IsOptional() @IsString()
  TRUSTED_PROXY?: string;

  @IsOptional() @url('IDENTITY_URL') IDENTITY_URL?: string;
  @IsOptional() @url('INCIDENTS_URL') INCIDENTS_URL?: string;
  @IsOptional() @url('STORE_URL') STORE_URL?: string;
  @IsOptional() @url('ALERTS_URL') ALERTS_URL?: string;
  @IsOptional() @url('GATEWAY_URL') GATEWAY_URL?: string;
  @IsOptional() @url('DISPATCHER_URL') DISPATCHER_URL?: string;
  @IsOptional() @url('TRAFFIC_URL') TRAFFIC_URL?: string;
}
