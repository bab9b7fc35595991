import { runService } from '@beacon/common';
import { alertsService } from './service';

void runService(alertsService);
