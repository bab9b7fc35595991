import { Injectable } from '@nestjs/common';
import { CapOrigin, CapPollResult, CapSource } from '@beacon/contracts';
import { notFound } from '@beacon/common';
import { CapIngestService } from './cap-ingest.service';
import { CapSourceRow, CapSourcesRepository, toCapSource } from './cap-sources.repository';
import { CapSourceDto } from './dto/cap-source.dto';

/** The admin's CAP sources with their health, and where a CAP-made alert came from. */
@Injectable()
export class CapSourcesService {
  constructor(
    private readonly sources: CapSourcesRepository,
    private readonly ingest: CapIngestService,
  ) {}

  async list(): Promise<CapSource[]> {
    return this.withHealth(await this.sources.list());
  }

  async get(id: string): Promise<CapSource> {
    return (await this.withHealth([await this.found(id)]))[0];
  }

  async create(dto: CapSourceDto, userId: string): Promise<CapSource> {
    const row = await this.sources.create(toInput(dto), userId);
    return this.get(row.id);
  }

  async update(id: string, dto: CapSourceDto): Promise<CapSource> {
    if (!(await this.sources.update(id, toInput(dto)))) throw notFound('CAP source', 'cap_source_not_found');
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.sources.remove(id))) throw notFound('CAP source', 'cap_source_not_found');
  }

  /** Polls the source now, whatever its schedule (the console's "Fetch now"); RateLimitExceeded when its feed host is over its limit. */
  async pollNow(id: string): Promise<CapPollResult> {
    return this.ingest.poll(await this.found(id), { onDemand: true });
  }

  async origin(alertId: string): Promise<CapOrigin> {
    const origin = await this.sources.origin(alertId);
    if (!origin) throw notFound('CAP origin', 'cap_origin_not_found');
    return origin;
  }

  async originalXml(alertId: string): Promise<string> {
    const xml = await this.sources.originalXml(alertId);
    if (xml === null) throw notFound('CAP origin', 'cap_origin_not_found');
    return xml;
  }

  private async found(id: string): Promise<CapSourceRow> {
    const row = await this.sources.find(id);
    if (!row) throw notFound('CAP source', 'cap_source_not_found');
    return row;
  }

  private async withHealth(rows: CapSourceRow[]): Promise<CapSource[]> {
    const refusals = await this.sources.recentRefusals(rows.map((r) => r.id));
    return rows.map((r) => toCapSource(r, refusals.get(r.id) ?? []));
  }
}

const toInput = (d: CapSourceDto) => ({
  name: d.name.trim(),
  url: d.url,
  intervalSeconds: d.intervalSeconds,
  categories: d.categories ?? [],
  severities: d.severities ?? [],
  mode: d.mode,
  channels: d.channels,
  enabled: d.enabled ?? true,
});
