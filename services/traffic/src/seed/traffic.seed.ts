import type { DataSource } from 'typeorm';
import { parseCameras, parseEvents, SourceEvent } from '../ingest/source-format';
import { SourceSyncRepository } from '../ingest/source-sync.repository';
import cameras from './cameras.json';
import events from './events.json';
import { SEED_SOURCE } from './seed-source';

/**
 * The events in events.json are dated around this instant (2026-01-01T00:00:00Z, in the source's Unix seconds);
 * seeding moves them to around now, so a fresh demo always has current crashes, closures and roadwork.
 */
export const SEED_REFERENCE_TIME = Date.UTC(2026, 0, 1);

/**
 * The Phoenix-metro demo data, stored in the 511 format and loaded through the same validation and upsert as
 * the live ingest (source 'seed'). Idempotent: running it again updates the rows and re-dates the events.
 * Camera images point at the snapshots the traffic service draws (GET /api/traffic/camera-images/:id.svg).
 */
export async function seedTraffic(ds: DataSource, log: (line: string) => void, now = new Date()) {
  const sync = new SourceSyncRepository(ds);
  const options = { now, maxVanishPercent: 100 };
  const parsedCameras = parseCameras(cameras, { allowRelativeUrls: true });
  const shift = now.getTime() - SEED_REFERENCE_TIME;
  const redate = (d: Date | null) => (d ? new Date(d.getTime() + shift) : null);
  const parsedEvents = parseEvents(events);
  const current: SourceEvent[] = parsedEvents.items.map((e) => ({ ...e, startDate: redate(e.startDate), endDate: redate(e.endDate) }));
  const c = await sync.syncCameras(SEED_SOURCE, parsedCameras.items, options);
  const e = await sync.syncEvents(SEED_SOURCE, current, options);
  log(`${c.received} cameras (${c.inserted} new), ${e.received} traffic events (${e.inserted} new)`);
}
