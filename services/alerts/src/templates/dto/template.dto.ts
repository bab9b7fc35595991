import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AlertCategory, DeliveryChannel, Severity, TEMPLATE_NAME_MAX } from '@beacon/contracts';
import { AlertMessage, AlertTitle, AlertTranslationsDto, AlertTranslationsField } from '../../alerts/dto/alert-translations.dto';
import { AlertCategoryField, AlertChannels, AlertRadius, AlertSeverity, AlertType } from '../../alerts/dto/create-alert.dto';

/** POST and PUT /api/alerts/templates: a template whole (PUT replaces it), validated like an alert. */
export class TemplateDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @MaxLength(TEMPLATE_NAME_MAX, { message: `Template name must be at most ${TEMPLATE_NAME_MAX} characters` })
  @IsNotEmpty({ message: 'Template name is required' })
  @IsString({ message: 'Template name is required' })
  name: string;

  @AlertType()
  type?: string;

  @AlertCategoryField()
  category?: AlertCategory;

  @AlertSeverity()
  severity?: Severity;

  @AlertTitle()
  title: string;

  @AlertMessage()
  message: string;

  @AlertTranslationsField()
  translations?: AlertTranslationsDto;

  @AlertChannels()
  channels: DeliveryChannel[];

  @AlertRadius()
  radiusKm?: number;
}
