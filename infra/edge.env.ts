import { IsOptional, IsString, Matches, ValidateBy } from 'class-validator';
import proxyAddr from 'proxy-addr';
import { portRule, Rules } from '@beacon/common';

/** TRUSTED_PROXY as Express's `trust proxy` takes it: names and CIDRs separated by commas, spaces allowed. */
export function trustProxySetting(value: string | undefined): string[] | false {
  return value ? value.split(',').map((s) => s.trim()) : false;
}

/**
 * A typo here would otherwise surface as a stack trace when the app is built, or, worse, trust nobody and hand every
 * visitor the balancer's address as their rate-limit key.
 */
const TrustedProxies = () =>
  ValidateBy({
    name: 'trustedProxies',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          proxyAddr.compile(trustProxySetting(value) || []);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => 'TRUSTED_PROXY must be addresses, CIDR ranges or loopback, linklocal, uniquelocal, separated by commas',
    },
  });

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

  /** Who may tell the edge a client's address (a load balancer in front of it); unset: nobody, the edge is the first hop. */
  @IsOptional()
  @TrustedProxies()
  TRUSTED_PROXY?: string;

  @IsOptional() @url('IDENTITY_URL') IDENTITY_URL?: string;
  @IsOptional() @url('INCIDENTS_URL') INCIDENTS_URL?: string;
  @IsOptional() @url('STORE_URL') STORE_URL?: string;
  @IsOptional() @url('ALERTS_URL') ALERTS_URL?: string;
  @IsOptional() @url('GATEWAY_URL') GATEWAY_URL?: string;
  @IsOptional() @url('DISPATCHER_URL') DISPATCHER_URL?: string;
  @IsOptional() @url('TRAFFIC_URL') TRAFFIC_URL?: string;
}
