import type { BaseEnv, ServiceDefinition } from '@beacon/common';
import { identityService } from '../services/identity/src/service';
import { incidentsService } from '../services/incidents/src/service';
import { storeService } from '../services/store/src/service';
import { alertsService } from '../services/alerts/src/service';
import { dispatcherService } from '../services/alerts/src/dispatcher.service';
import { gatewayService } from '../services/gateway/src/service';
import { trafficService } from '../services/traffic/src/service';

export const SERVICE_DEFINITIONS: ServiceDefinition<BaseEnv>[] = [
  identityService,
  incidentsService,
  storeService,
  alertsService,
  dispatcherService,
  gatewayService,
  trafficService,
] as unknown as ServiceDefinition<BaseEnv>[];
