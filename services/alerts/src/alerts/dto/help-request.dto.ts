import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AlertLatitude, AlertLongitude } from './create-alert.dto';

export class HelpRequestDto {
  @IsOptional()
  @IsString({ message: 'Message must be text' })
  @MaxLength(1000, { message: 'Message must be at most 1000 characters' })
  message?: string;

  @AlertLatitude()
  lat?: number;

  @AlertLongitude()
  lng?: number;
}

export class ReceiptDto {
  @IsString({ message: 'token is required' })
  @MaxLength(64)
  token: string;

  @IsString()
  @MaxLength(16)
  event: 'delivered' | 'ack';
}

/**
 * POST /api/alerts/admin/help-requests/:id/resolve: what was done about it (issue #38). Its length is checked by the
 * service (RESOLUTION_NOTE_LIMITS), so that a missing or blank note gets its own code, resolution_note_required.
 */
export class ResolveHelpRequestDto {
  @IsOptional()
  @IsString({ message: 'note must be text' })
  note?: string;
}
