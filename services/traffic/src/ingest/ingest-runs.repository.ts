import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { IngestReport } from './ingest-report';

export interface IngestRunRow {
  id: string;
  source: string;
  reason: string;
  status: IngestReport['status'];
  startedAt: string;
  finishedAt: string;
  report: IngestReport;
}

@Injectable()
export class IngestRunsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async record(report: IngestReport): Promise<void> {
    await this.ds.query(`INSERT INTO traffic.ingest_runs (source, reason, status, started_at, finished_at, report) VALUES ($1, $2, $3, $4, $5, $6)`, [
      report.source,
      report.reason,
      report.status,
      report.startedAt,
      report.finishedAt,
      JSON.stringify(report),
    ]);
    // keep a month of history; the table never grows without bound
    await this.ds.query(`DELETE FROM traffic.ingest_runs WHERE started_at < now() - interval '30 days'`);
  }

  recent(limit: number): Promise<IngestRunRow[]> {
    return this.ds.query(
      `SELECT id, source, reason, status, started_at AS "startedAt", finished_at AS "finishedAt", report
         FROM traffic.ingest_runs ORDER BY started_at DESC LIMIT $1`,
      [limit],
    );
  }
}
