import { Injectable } from '@nestjs/common';
import { emptyReachCounts, REACH_HELP_REQUESTS_MAX, REACH_MIN_CELL_PEOPLE, REACH_STATES, type AlertReach, type ReachCounts } from '@beacon/contracts';
import { notFound } from '@beacon/common';
import { toSummary } from '../alerts/alert.rows';
import { AlertsRepository } from '../alerts/alerts.repository';
import { areaBounds, baseLevel, CELL_SIZES, mergeCells } from './reach-grid';
import { ReachRepository } from './reach.repository';

/**
 * The map of an alert's reach (issue #42): its recipients by home, counted in cells of at least REACH_MIN_CELL_PEOPLE
 * (never one person's home), and its help requests where their senders said they were. While an alert goes out every
 * open console reads it again every few seconds: the reads of one alert that arrive while one is under way share its
 * answer, so many consoles cost the database one count at a time.
 */
@Injectable()
export class ReachService {
  private readonly underWay = new Map<string, Promise<AlertReach>>();

  constructor(
    private readonly alerts: AlertsRepository,
    private readonly reach: ReachRepository,
  ) {}

  get(alertId: string): Promise<AlertReach> {
    const running = this.underWay.get(alertId);
    if (running) return running;
    const read = this.read(alertId).finally(() => this.underWay.delete(alertId));
    this.underWay.set(alertId, read);
    return read;
  }

  private async read(alertId: string): Promise<AlertReach> {
    const row = await this.alerts.findById(alertId);
    if (!row) throw notFound('Alert', 'alert_not_found');
    const area = toSummary(row).area;
    const level = baseLevel(area ? areaBounds(area) : await this.reach.homesExtent(alertId));
    const at = new Date().toISOString();
    const [base, help] = await Promise.all([this.reach.baseCells(alertId, CELL_SIZES[level]), this.reach.helpRequests(alertId, REACH_HELP_REQUESTS_MAX)]);
    const { cells, elsewhere } = mergeCells(base.cells, level, REACH_MIN_CELL_PEOPLE);
    const all = [...base.cells, ...(base.unlocated ? [base.unlocated] : [])];
    const totals = emptyReachCounts();
    for (const c of all) addTo(totals, c.counts);
    return {
      alertId,
      minCellPeople: REACH_MIN_CELL_PEOPLE,
      cells,
      totals,
      confirmed: all.reduce((n, c) => n + c.confirmed, 0),
      elsewhere,
      unlocated: base.unlocated?.counts ?? emptyReachCounts(),
      helpRequests: help.rows,
      helpRequestsTotal: help.total,
      at,
    };
  }
}

function addTo(into: ReachCounts, more: ReachCounts) {
  for (const s of REACH_STATES) into[s] += more[s];
}
