import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { ApiReturns, notFound } from '@beacon/common';
import { TemplateDto } from './dto/template.dto';
import { TemplatesService } from './templates.service';

/** A malformed id names no template: 404, like an unknown one. */
const templateId = new ParseUUIDPipe({ exceptionFactory: () => notFound('Template', 'template_not_found') });

/** Admin: saved alert templates (the wizard and Quick Send start from them). */
@Controller('templates')
@Roles('admin')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @ApiReturns('AlertTemplates')
  list() {
    return this.templates.list();
  }

  @Get(':id')
  @ApiReturns('AlertTemplate')
  one(@Param('id', templateId) id: string) {
    return this.templates.get(id);
  }

  @Post()
  @ApiReturns('AlertTemplate')
  create(@CurrentUser() user: AuthUser, @Body() dto: TemplateDto) {
    return this.templates.create(user, dto);
  }

  @Put(':id')
  @ApiReturns('AlertTemplate')
  update(@Param('id', templateId) id: string, @Body() dto: TemplateDto) {
    return this.templates.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiReturns('Ok')
  remove(@Param('id', templateId) id: string) {
    return this.templates.remove(id);
  }
}
