import { CreateIncidents1763800000000 } from './1763800000000-CreateIncidents';
import { CreateCommunity1763800100000 } from './1763800100000-CreateCommunity';
import { IndexVerifiedAt1763800200000 } from './1763800200000-IndexVerifiedAt';
import { PrivatePhotos1763800300000 } from './1763800300000-PrivatePhotos';
import { ReporterEmail1763800400000 } from './1763800400000-ReporterEmail';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [
  CreateIncidents1763800000000,
  CreateCommunity1763800100000,
  IndexVerifiedAt1763800200000,
  PrivatePhotos1763800300000,
  ReporterEmail1763800400000,
];
