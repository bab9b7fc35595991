import { runService } from '@beacon/common';
import { incidentsService } from './service';

void runService(incidentsService);
