import { runService } from '@beacon/common';
import { gatewayService } from './service';

void runService(gatewayService);
