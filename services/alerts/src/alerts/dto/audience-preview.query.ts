import { IsIn, IsOptional } from 'class-validator';

/** GET /api/alerts/:id/audience: whom the draft would reach if sent now; `everyone=true` for a draft with no area and no contact groups. */
export class SendPreviewQuery {
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'everyone must be true or false' })
  everyone?: 'true' | 'false';
}
