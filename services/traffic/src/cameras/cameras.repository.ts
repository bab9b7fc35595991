import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Camera, Rows } from '@beacon/contracts';

/** A camera as the screens see it (spec: camera_id, roadway, direction, description, lat, lng, image_url, last_updated). */
export type CameraView = Rows<Camera, 'lastUpdated'>;

const CAMERA_COLUMNS = `camera_id AS "cameraId", roadway, direction, description, lat, lng, image_url AS "imageUrl", last_updated AS "lastUpdated"`;

/** Reads only cameras the source still reports; vanished ones stay in the table for history. */
@Injectable()
export class CamerasRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Every current camera, by roadway A to Z (the cameras page). */
  listByRoadway(): Promise<CameraView[]> {
    return this.ds.query(`SELECT ${CAMERA_COLUMNS} FROM traffic.cameras WHERE vanished_at IS NULL ORDER BY roadway, description, camera_id`);
  }

  /** Current cameras that can be placed on the map. */
  listLocated(): Promise<CameraView[]> {
    return this.ds.query(
      `SELECT ${CAMERA_COLUMNS} FROM traffic.cameras
        WHERE vanished_at IS NULL AND lat IS NOT NULL AND lng IS NOT NULL ORDER BY roadway, description, camera_id`,
    );
  }

  /** The camera a generated demo snapshot shows, by its source id in the given source. */
  async findBySourceId(source: string, sourceId: string): Promise<CameraView | null> {
    const rows = await this.ds.query(`SELECT ${CAMERA_COLUMNS} FROM traffic.cameras WHERE source = $1 AND source_id = $2 AND vanished_at IS NULL`, [
      source,
      sourceId,
    ]);
    return rows[0] ?? null;
  }
}
