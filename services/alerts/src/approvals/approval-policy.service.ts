import { Injectable } from '@nestjs/common';
import { ApprovalPolicy } from '@beacon/contracts';
import type { Actor } from '../alerts/audit.repository';
import { ApprovalPolicyRepository } from '../alerts/approval-policy.repository';
import { ApprovalPolicyDto } from './dto/approval-policy.dto';

/** Admin Settings' approval policy: read by every console, changed by admins; a field left out keeps its value. */
@Injectable()
export class ApprovalPolicyService {
  constructor(private readonly repo: ApprovalPolicyRepository) {}

  get(): Promise<ApprovalPolicy> {
    return this.repo.get();
  }

  async update(dto: ApprovalPolicyDto, by: Actor): Promise<ApprovalPolicy> {
    const current = await this.repo.get();
    await this.repo.save(
      { mode: dto.mode ?? current.mode, minSeverity: dto.minSeverity ?? current.minSeverity, capAutomatic: dto.capAutomatic ?? current.capAutomatic },
      by,
    );
    return this.repo.get();
  }
}
