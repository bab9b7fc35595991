import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { HelpRequestsService } from './help-requests.service';
import { HelpRequestsQuery } from './dto/list-alerts.query';
import { ResolveHelpRequestDto } from './dto/help-request.dto';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

/** Staff: the help requests users sent from an alert, with how to reach them and where, and resolving them with a note. */
@Controller('admin/help-requests')
// each route names the least role it needs (issue #38); one that does not is for admins only
@MinRole('admin')
export class HelpRequestsController {
  constructor(private readonly help: HelpRequestsService) {}

  @Get()
  @MinRole('viewer')
  @ApiReturns('HelpRequestPage')
  @ApiOperation(
    'helpRequests.list',
    'Help requests',
    "The help requests people sent from alerts, paged, with each person's phone and e-mail and where to find them (the location they shared, else their home).",
  )
  list(@Query() q: HelpRequestsQuery) {
    return this.help.list(q);
  }

  @Post(':id/resolve')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('HelpRequest')
  @ApiOperation(
    'helpRequests.resolve',
    'Resolve a help request',
    'Marks a help request resolved, with a note of what was done (required), kept with who resolved it and when.',
  )
  @ApiErrors({ 400: ['bad_request', 'resolution_note_required'], 404: ['help_request_not_found'] })
  resolve(@CurrentUser() user: AuthUser, @Param('id', new ParseUUIDPipe()) id: string, @Body() dto: ResolveHelpRequestDto) {
    return this.help.resolve(id, dto.note, { id: user.id, email: user.email });
  }
}
