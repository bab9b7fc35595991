import { runService } from '@beacon/common';
import { lightenAsyncResourceBind } from './channels/async-resource-bind';
import { dispatcherService } from './dispatcher.service';

// node:http2 binds every push request to an AsyncResource, and Node 20 builds a deprecated property for each one.
lightenAsyncResourceBind();
void runService(dispatcherService);
