import { Injectable } from '@nestjs/common';
import { AlertCategory, AlertTemplate, CATEGORY_DEFAULT_TYPE, categoryOfType } from '@beacon/contracts';
import { badRequest, conflict, notFound } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { assertSmsFits, toTranslations } from '../alerts/alert-texts';
import { TemplateDto } from './dto/template.dto';
import { isNameTaken, TemplateFields, TemplatesRepository } from './templates.repository';

const notFoundError = () => notFound('Template', 'template_not_found');

/** Saved alert templates: the admin's CRUD. Each is checked like an alert (text lengths per language, SMS segments). */
@Injectable()
export class TemplatesService {
  constructor(private readonly repo: TemplatesRepository) {}

  list(): Promise<AlertTemplate[]> {
    return this.repo.list();
  }

  async get(id: string): Promise<AlertTemplate> {
    return (await this.repo.find(id)) ?? Promise.reject(notFoundError());
  }

  create(user: AuthUser, dto: TemplateDto): Promise<AlertTemplate> {
    return this.named(dto.name, () => this.repo.insert(toFields(dto), user.id));
  }

  async update(id: string, dto: TemplateDto): Promise<AlertTemplate> {
    const saved = await this.named(dto.name, () => this.repo.update(id, toFields(dto)));
    if (!saved) throw notFoundError();
    return saved;
  }

  async remove(id: string): Promise<{ ok: boolean }> {
    if (!(await this.repo.remove(id))) throw notFoundError();
    return { ok: true };
  }

  /** A write that may find the name taken: 409 template_name_taken. */
  private async named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isNameTaken(e)) throw conflict(`A template named "${name}" already exists: choose another name`, 'template_name_taken');
      throw e;
    }
  }
}

/** The stored fields: type and category complete each other as on an alert; the SMS must fit in every language. */
export function toFields(dto: TemplateDto): TemplateFields {
  if (!dto.type && !dto.category) throw badRequest('Alert type is required', 'type_required');
  const category: AlertCategory = dto.category ?? categoryOfType(dto.type!);
  const translations = toTranslations(dto.translations);
  if (dto.channels.includes('sms')) assertSmsFits({ title: dto.title, message: dto.message, translations });
  return {
    name: dto.name,
    type: dto.type ?? CATEGORY_DEFAULT_TYPE[category],
    category,
    severity: dto.severity ?? 'medium',
    title: dto.title,
    message: dto.message,
    translations,
    channels: dto.channels,
    radiusKm: dto.radiusKm ?? null,
  };
}
