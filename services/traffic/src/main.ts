import { runService } from '@beacon/common';
import { trafficService } from './service';

void runService(trafficService);
