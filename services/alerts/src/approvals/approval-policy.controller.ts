import { Body, Controller, Get, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiOperation, ApiReturns } from '@beacon/common';
import { ApprovalPolicyService } from './approval-policy.service';
import { ApprovalPolicyDto } from './dto/approval-policy.dto';

/** Admin Settings' approval policy (issue 38): when an alert's first send waits for a second person. */
@Controller('admin/settings/approval')
export class ApprovalPolicyController {
  constructor(private readonly policy: ApprovalPolicyService) {}

  @Get()
  @MinRole('viewer')
  @ApiReturns('ApprovalPolicy')
  @ApiOperation('approvalPolicy.get', 'Approval policy', 'When an alert waits for a second person before it goes out. Off until an admin turns it on.')
  get() {
    return this.policy.get();
  }

  @Put()
  @MinRole('admin')
  @ApiReturns('ApprovalPolicy')
  @ApiOperation(
    'approvalPolicy.update',
    'Update the approval policy',
    'Saves the approval policy: off, alerts at or above a severity, or every alert; and whether CAP sources’ automatic sends wait too. A field left out keeps its value.',
  )
  update(@CurrentUser() user: AuthUser, @Body() dto: ApprovalPolicyDto) {
    return this.policy.update(dto, { id: user.id, email: user.email });
  }
}
