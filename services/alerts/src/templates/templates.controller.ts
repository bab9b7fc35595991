import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, notFound } from '@beacon/common';
import { TranslationKeysChecked } from '../alerts/translation-keys.interceptor';
import { TemplateDto } from './dto/template.dto';
import { TemplatesService } from './templates.service';

/** A malformed id names no template: 404, like an unknown one. */
const templateId = new ParseUUIDPipe({ exceptionFactory: () => notFound('Template', 'template_not_found') });

/** Admin: saved alert templates (the wizard and Quick Send start from them). */
@Controller('templates')
// each route names the least role it needs (issue #38); one that does not is for admins only
@MinRole('admin')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @MinRole('viewer')
  @ApiReturns('AlertTemplates')
  @ApiOperation('alertTemplates.list', 'Alert templates', 'The saved templates the wizard and Quick Send start from.')
  list() {
    return this.templates.list();
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiReturns('AlertTemplate')
  @ApiOperation('alertTemplates.get', 'One alert template', 'A template by its id.')
  @ApiErrors({ 404: ['template_not_found'] })
  one(@Param('id', templateId) id: string) {
    return this.templates.get(id);
  }

  @Post()
  @MinRole('publisher')
  @TranslationKeysChecked()
  @ApiReturns('AlertTemplate')
  @ApiOperation('alertTemplates.create', 'Save an alert template', 'Saves a template under a name no other template has.')
  @ApiErrors({ 400: ['sms_too_long', 'type_required'], 409: ['template_name_taken'] })
  create(@CurrentUser() user: AuthUser, @Body() dto: TemplateDto) {
    return this.templates.create(user, dto);
  }

  @Put(':id')
  @MinRole('publisher')
  @TranslationKeysChecked()
  @ApiReturns('AlertTemplate')
  @ApiOperation('alertTemplates.update', 'Update an alert template', "Replaces a template's contents.")
  @ApiErrors({ 400: ['sms_too_long', 'type_required'], 404: ['template_not_found'], 409: ['template_name_taken'] })
  update(@Param('id', templateId) id: string, @Body() dto: TemplateDto) {
    return this.templates.update(id, dto);
  }

  @Delete(':id')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('Ok')
  @ApiOperation('alertTemplates.delete', 'Delete an alert template', 'Deletes a template.')
  @ApiErrors({ 404: ['template_not_found'] })
  remove(@Param('id', templateId) id: string) {
    return this.templates.remove(id);
  }
}
