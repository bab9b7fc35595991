import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsISO8601, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { WEBHOOK_RECEIPT_STATUSES, type WebhookReceiptStatus } from '../provider-statuses';

/** Receipts one callback may carry: a gateway reporting a large alert batches them. */
export const WEBHOOK_RECEIPTS_MAX = 1000;

/** One message's receipt, naming the delivery id Beacon gave the webhook. */
export class WebhookReceiptDto {
  @IsString({ message: 'deliveryId must be text' })
  @Length(1, 100, { message: 'deliveryId must be 1 to 100 characters' })
  deliveryId: string;

  @IsIn(WEBHOOK_RECEIPT_STATUSES, { message: `status must be one of ${WEBHOOK_RECEIPT_STATUSES.join(', ')}` })
  status: WebhookReceiptStatus;

  /** The carrier's or gateway's words for a failure. */
  @IsOptional()
  @IsString({ message: 'reason must be text' })
  @MaxLength(500, { message: 'reason must be at most 500 characters' })
  reason?: string;

  /** When it happened (ISO 8601); absent: when it arrived. */
  @IsOptional()
  @IsISO8601({}, { message: 'at must be an ISO 8601 time' })
  at?: string;
}

/** POST /providers/webhook/status, signed with X-Beacon-Signature. */
export class WebhookStatusDto {
  @IsArray({ message: 'receipts must be a list' })
  @ArrayMaxSize(WEBHOOK_RECEIPTS_MAX, { message: `At most ${WEBHOOK_RECEIPTS_MAX} receipts per call` })
  @ValidateNested({ each: true })
  @Type(() => WebhookReceiptDto)
  receipts: WebhookReceiptDto[];
}

/** POST /providers/webhook/inbound: an SMS a number sent back, signed with X-Beacon-Signature. */
export class WebhookInboundDto {
  /** The number that replied, in E.164 as Beacon sent to it. */
  @IsString({ message: 'from must be text' })
  @Length(1, 32, { message: 'from must be 1 to 32 characters' })
  from: string;

  /** The number it replied to. */
  @IsOptional()
  @IsString({ message: 'to must be text' })
  @MaxLength(32, { message: 'to must be at most 32 characters' })
  to?: string;

  @IsString({ message: 'text must be text' })
  @MaxLength(1600, { message: 'text must be at most 1600 characters' })
  text: string;

  /** The gateway's id of the message: a retried callback carries the same, and is recorded once. */
  @IsString({ message: 'id must be text' })
  @Length(1, 200, { message: 'id must be 1 to 200 characters' })
  id: string;
}
