import { Controller, Get, Param } from '@nestjs/common';
import { MinRole } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { alertIdPipe as uuid } from '../alerts/alert-id.pipe';
import { ReachService } from './reach.service';

/** The alert page's map of reach (issue #42): a console read, like the alert's other reports. */
@Controller()
@MinRole('viewer')
export class ReachController {
  constructor(private readonly reach: ReachService) {}

  @Get(':id/reach')
  @ApiReturns('AlertReach')
  @ApiOperation(
    'alerts.reach',
    "An alert's reach on the map",
    "The alert's recipients by their home, counted by state (needs help, reached, failed, not yet) in grid cells of at least `minCellPeople` people: a cell with fewer is merged into the larger cell around it, and those still too few at the largest size are only counted (`elsewhere`); people with no home on file are counted apart (`unlocated`). Never one person's home. Its help requests, each with the location its sender shared.",
  )
  @ApiErrors({ 404: ['alert_not_found'] })
  get(@Param('id', uuid) id: string) {
    return this.reach.get(id);
  }
}
