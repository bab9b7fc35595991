import { Injectable } from '@nestjs/common';
import { HelpRequest, Page, RESOLUTION_NOTE_LIMITS } from '@beacon/contracts';
import { badRequest, notFound } from '@beacon/common';
import { ProgressPublisher } from '../live/progress.publisher';
import type { Actor } from './audit.repository';
import { HelpRequestsRepository } from './help-requests.repository';
import { toPage } from './page';

/** Staff's side of help requests: the list with how to reach each person and where, and resolving one with a note. */
@Injectable()
export class HelpRequestsService {
  constructor(
    private readonly help: HelpRequestsRepository,
    private readonly progress: ProgressPublisher,
  ) {}

  async list(q: { page: number; pageSize: number; status?: 'open' | 'resolved' }): Promise<Page<HelpRequest>> {
    const { rows, total } = await this.help.list({ status: q.status, offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    return toPage(rows, total, q);
  }

  /** What was done is what the record keeps: a note is required, trimmed, RESOLUTION_NOTE_LIMITS long. */
  async resolve(id: string, note: string | undefined, actor: Actor): Promise<HelpRequest> {
    const text = (note ?? '').trim();
    const { min, max } = RESOLUTION_NOTE_LIMITS;
    if (text.length < min || text.length > max)
      throw badRequest(`Say what was done about this request: a note of ${min} to ${max} characters`, 'resolution_note_required');
    const row = await this.help.resolve(id, text, actor);
    if (!row) throw notFound('Help request', 'help_request_not_found');
    this.progress.touch(row.alertId);
    return row;
  }
}
