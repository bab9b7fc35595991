import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ADMIN_ALERT_TYPES, ALERT_CATEGORIES, ALERT_LIMITS, AlertCategory, DeliveryChannel, Severity, SEVERITIES, TEMPLATE_NAME_MAX } from '@beacon/contracts';
import { NumberRange, OPTIONAL_FROM_TEXT } from '@beacon/common';
import { AlertMessage, AlertTitle, AlertTranslationsDto, AlertTranslationsField } from '../../alerts/dto/alert-translations.dto';
import { AlertChannels } from '../../alerts/dto/create-alert.dto';

/** POST and PUT /api/alerts/templates: a template whole (PUT replaces it), validated like an alert. */
export class TemplateDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @MaxLength(TEMPLATE_NAME_MAX, { message: `Template name must be at most ${TEMPLATE_NAME_MAX} characters` })
  @IsNotEmpty({ message: 'Template name is required' })
  @IsString({ message: 'Template name is required' })
  name: string;

  @IsOptional()
  @IsIn(ADMIN_ALERT_TYPES as unknown as string[], { message: `Alert type must be one of ${ADMIN_ALERT_TYPES.join(', ')}` })
  @IsNotEmpty({ message: 'Alert type is required' })
  type?: string;

  @IsOptional()
  @IsIn(ALERT_CATEGORIES as unknown as string[], { message: 'Category must be one of weather, traffic, security, public_safety, health' })
  category?: AlertCategory;

  @IsOptional()
  @IsIn(SEVERITIES as unknown as string[], { message: 'Severity must be one of critical, high, medium, low' })
  severity?: Severity;

  @AlertTitle()
  title: string;

  @AlertMessage()
  message: string;

  @AlertTranslationsField()
  translations?: AlertTranslationsDto;

  @AlertChannels()
  channels: DeliveryChannel[];

  @NumberRange(ALERT_LIMITS.radiusKmMin, ALERT_LIMITS.radiusKmMax, 'Radius must be a number from 1 to 1000 km', OPTIONAL_FROM_TEXT)
  radiusKm?: number;
}
