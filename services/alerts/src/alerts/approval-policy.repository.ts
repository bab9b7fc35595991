import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApprovalPolicy, DEFAULT_APPROVAL_POLICY } from '@beacon/contracts';
import type { Actor } from './audit.repository';

interface PolicyRow {
  mode: ApprovalPolicy['mode'];
  min_severity: ApprovalPolicy['minSeverity'];
  cap_automatic: boolean;
  updated_by: string | null;
  updated_by_email: string | null;
  updated_at: Date;
}

/** The approval policy: one row once an admin saved it; DEFAULT_APPROVAL_POLICY (off) until then. */
@Injectable()
export class ApprovalPolicyRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async get(): Promise<ApprovalPolicy> {
    const [row]: PolicyRow[] = await this.ds.query(`SELECT * FROM alerts.approval_policy WHERE id = 1`);
    if (!row) return { ...DEFAULT_APPROVAL_POLICY };
    return {
      mode: row.mode,
      minSeverity: row.min_severity,
      capAutomatic: row.cap_automatic,
      updatedAt: new Date(row.updated_at).toISOString(),
      updatedBy: row.updated_by_email ?? row.updated_by,
    };
  }

  async save(p: Pick<ApprovalPolicy, 'mode' | 'minSeverity' | 'capAutomatic'>, by: Actor): Promise<void> {
    await this.ds.query(
      `INSERT INTO alerts.approval_policy (id, mode, min_severity, cap_automatic, updated_by, updated_by_email, updated_at)
       VALUES (1, $1, $2, $3, $4, $5, now())
       ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, min_severity = excluded.min_severity, cap_automatic = excluded.cap_automatic,
         updated_by = excluded.updated_by, updated_by_email = excluded.updated_by_email, updated_at = now()`,
      [p.mode, p.minSeverity, p.capAutomatic, by.id, by.email ?? null],
    );
  }
}
