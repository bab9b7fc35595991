import { SetMetadata } from '@nestjs/common';

/** Metadata key read by the auth guard (libs/auth): the route needs no token. Lives here so health checks can use it. */
export const IS_PUBLIC = 'beacon:public';
/** Metadata keys of libs/auth's @Roles and @OptionalAuth, here so the OpenAPI document can read who may call a route. */
export const ROLES_METADATA = 'beacon:roles';
export const OPTIONAL_AUTH_METADATA = 'beacon:optional-auth';
/** Metadata key of @RateLimit (rate-limit.ts), here for the same reason: the document says which routes answer 429. */
export const RATE_LIMIT_METADATA = 'beacon:rate-limit';

/** The route needs no token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
