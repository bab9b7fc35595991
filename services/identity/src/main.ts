import { runService } from '@beacon/common';
import { identityService } from './service';

void runService(identityService);
