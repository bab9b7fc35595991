import { runService } from '@beacon/common';
import { dispatcherService } from './service';

void runService(dispatcherService);
