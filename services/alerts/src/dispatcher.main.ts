import { runService } from '@beacon/common';
import { dispatcherService } from './dispatcher.service';

void runService(dispatcherService);
