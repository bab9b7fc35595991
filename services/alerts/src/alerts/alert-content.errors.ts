import type { ErrorMap } from '@beacon/common';

/**
 * What an alert's content is refused for wherever the alerts service reads one (an administrator's create, preview and
 * update, a CAP source's poll): its area, its expiry and the length of its SMS text. Routes declare these with
 * @ApiErrors and add their own; route-errors.spec checks the whole list against what each handler can raise.
 */
export const ALERT_CONTENT_ERRORS = {
  400: [
    'area_point_out_of_range',
    'area_self_intersecting',
    'area_too_few_points',
    'area_too_large',
    'area_too_many_parts',
    'area_too_many_points',
    'expiry_in_past',
    'invalid_area',
    'sms_too_long',
  ],
} as const satisfies ErrorMap;

/** ...and, where the administrator's body gives the place itself (create, preview, update), its location fields. */
export const ALERT_LOCATION_ERRORS = { 400: ['area_and_location', 'incomplete_location'] } as const satisfies ErrorMap;
