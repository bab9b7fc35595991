import { runService } from '@beacon/common';
import { storeService } from './service';

void runService(storeService);
