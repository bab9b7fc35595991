import { SetMetadata } from '@nestjs/common';

/** Metadata key read by the auth guard (libs/auth): the route needs no token. Lives here so health checks can use it. */
export const IS_PUBLIC = 'beacon:public';

/** The route needs no token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
