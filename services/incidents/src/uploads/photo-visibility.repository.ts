import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UploadBucket } from '@beacon/contracts';
import { PUBLISHED_STATUSES } from '../incidents/incident.entity';

/**
 * Whether a stored photo is published: attached to a verified or resolved report, or to a visible community
 * post. Asked by the public photo route, so it reads the two tables directly (same schema, indexed on the path)
 * rather than going through the incidents and community modules, which themselves depend on uploads.
 */
@Injectable()
export class PhotoVisibilityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async isPublished(bucket: UploadBucket, path: string): Promise<boolean> {
    const [row] =
      bucket === 'incident-photos'
        ? await this.ds.query(`SELECT EXISTS (SELECT 1 FROM incidents.incidents WHERE photo_path = $1 AND status = ANY($2::text[])) AS published`, [
            path,
            PUBLISHED_STATUSES,
          ])
        : await this.ds.query(`SELECT EXISTS (SELECT 1 FROM incidents.community_posts WHERE image_path = $1 AND status = 'active') AS published`, [path]);
    return row.published === true;
  }
}
