import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, ApiReturns, AppError } from '@beacon/common';
import { alertIdPipe } from '../alerts/alert-id.pipe';
import { CAP_CONTENT_TYPE } from '../cap/cap.xml';
import { TestGroupMembershipDto, TestScheduleDto } from './dto/test-schedule.dto';
import { TestAlertsService } from './test-alerts.service';

/** A malformed user id names nobody in the group: 404, like someone not in it. */
const memberId = new ParseUUIDPipe({ exceptionFactory: () => new AppError(404, 'test_group_member_not_found', 'This person is not in the staff test group') });

/**
 * The recurring test alert (issue #38): its schedule under Admin Settings, the staff test group it goes to, and a test
 * alert's CAP message. Every staff member names themselves into the group (the alerts service keeps no list of staff).
 */
@Controller('admin')
@MinRole('admin')
export class TestAlertsController {
  constructor(private readonly tests: TestAlertsService) {}

  @Get('settings/test-schedule')
  @MinRole('admin')
  @ApiReturns('TestSchedule')
  @ApiOperation(
    'testSchedule.get',
    'Recurring test alert schedule',
    'When the recurring test alert to the staff test group goes out (off by default), on which channels, the next run and the last.',
  )
  schedule() {
    return this.tests.schedule();
  }

  @Put('settings/test-schedule')
  @MinRole('admin')
  @ApiReturns('TestSchedule')
  @ApiOperation(
    'testSchedule.update',
    'Update the recurring test alert schedule',
    'Off, daily, or weekly on a weekday, at a local time in an IANA time zone, on channels turned on in the settings. A field left out keeps its value; the next run is computed afresh.',
  )
  @ApiErrors({ 400: ['invalid_time_zone', 'test_channels_required', 'test_channel_disabled'] })
  updateSchedule(@CurrentUser() user: AuthUser, @Body() dto: TestScheduleDto) {
    return this.tests.updateSchedule(dto, { id: user.id, email: user.email });
  }

  @Get('test-group')
  @MinRole('admin')
  @ApiReturns('TestGroup')
  @ApiOperation('testGroup.list', 'Staff test group', 'The staff who receive the recurring test alert, and the chosen channels that reach each.')
  group() {
    return this.tests.group();
  }

  @Get('test-group/me')
  @MinRole('viewer')
  @ApiReturns('TestGroupMembership')
  @ApiOperation('testGroup.me', 'Am I in the staff test group', 'Whether the signed-in staff member receives the recurring test alert.')
  membership(@CurrentUser() user: AuthUser) {
    return this.tests.membership(user.id);
  }

  @Put('test-group/me')
  @MinRole('viewer')
  @ApiReturns('TestGroupMembership')
  @ApiOperation(
    'testGroup.setMe',
    'Receive the recurring test alert',
    'Joins or leaves the staff test group: its members get the recurring test alert on the channels their alert preferences reach.',
  )
  setMembership(@CurrentUser() user: AuthUser, @Body() dto: TestGroupMembershipDto) {
    return this.tests.setMembership({ id: user.id, email: user.email ?? null }, dto.member);
  }

  @Delete('test-group/:userId')
  @MinRole('admin')
  @ApiReturns('TestGroup')
  @ApiOperation('testGroup.remove', 'Take someone out of the staff test group', 'They stop receiving the recurring test alert; they may opt in again.')
  @ApiErrors({ 404: ['test_group_member_not_found'] })
  remove(@Param('userId', memberId) userId: string) {
    return this.tests.remove(userId);
  }

  @Get('test-alerts/:id/cap.xml')
  @MinRole('admin')
  @ApiFile(CAP_CONTENT_TYPE)
  @ApiOperation(
    'testAlerts.cap',
    "A test alert's CAP message",
    'A test alert (Send Test Alert, or a run of the recurring one) as a CAP 1.2 message with status Test. Test alerts are never in the public CAP feed.',
  )
  @ApiErrors({ 404: ['alert_not_found'] })
  async cap(@Param('id', alertIdPipe) id: string, @Res({ passthrough: true }) res: Response) {
    const xml = await this.tests.cap(id);
    res.type(CAP_CONTENT_TYPE);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return xml;
  }
}
