import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, ApiReturns, notFound } from '@beacon/common';
import { CONTACT_CSV_COLUMNS, CONTACT_IMPORT_LIMITS, CONTACT_IMPORT_PREVIEW_TTL_SECONDS } from '@beacon/contracts';
import { RateLimited } from '../config/rate-limits';
import { actorOf, ContactGroupsService } from './contact-groups.service';
import { readCsvBody } from './csv-body';
import {
  AddContactMemberDto,
  ConfirmImportDto,
  ContactAuditQuery,
  ContactMembersQuery,
  CreateContactGroupDto,
  UpdateContactGroupDto,
} from './dto/contact-group.dto';

/** A malformed id names no group (or member): 404, like an unknown one. */
const groupId = new ParseUUIDPipe({ exceptionFactory: () => notFound('Contact group', 'contact_group_not_found') });
const memberId = new ParseUUIDPipe({ exceptionFactory: () => notFound('Member', 'contact_member_not_found') });

/**
 * Contact groups (issue #42): named lists of Beacon users and external contacts (no account) that alerts will be able
 * to reach wherever they live. Staff read them; administrators change them, each change audited.
 */
@Controller('admin/contact-groups')
// each route names the least role it needs; one that does not is for admins only
@MinRole('admin')
export class ContactGroupsController {
  constructor(private readonly groups: ContactGroupsService) {}

  @Get()
  @MinRole('viewer')
  @ApiReturns('ContactGroups')
  @ApiOperation('contactGroups.list', 'Contact groups', 'Every contact group by name, with how many members it has and how many of them are external contacts.')
  list() {
    return this.groups.list();
  }

  @Post()
  @ApiReturns('ContactGroup')
  @ApiOperation('contactGroups.create', 'Create a contact group', 'A new, empty group under a name no other group has (regardless of case).')
  @ApiErrors({ 409: ['contact_group_name_taken'] })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateContactGroupDto) {
    return this.groups.create(dto, actorOf(user));
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiReturns('ContactGroup')
  @ApiOperation('contactGroups.get', 'One contact group', 'A group by its id, with its member counts.')
  @ApiErrors({ 404: ['contact_group_not_found'] })
  one(@Param('id', groupId) id: string) {
    return this.groups.get(id);
  }

  @Patch(':id')
  @ApiReturns('ContactGroup')
  @ApiOperation(
    'contactGroups.update',
    'Rename or describe a contact group',
    "Changes the group's name or description (a field left out keeps its value); recorded in its audit trail.",
  )
  @ApiErrors({ 404: ['contact_group_not_found'], 409: ['contact_group_name_taken'] })
  update(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string, @Body() dto: UpdateContactGroupDto) {
    return this.groups.update(id, dto, actorOf(user));
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiReturns('Ok')
  @ApiOperation('contactGroups.delete', 'Delete a contact group', 'Deletes the group and its members; its audit trail keeps the deletion.')
  @ApiErrors({ 404: ['contact_group_not_found'] })
  remove(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string) {
    return this.groups.remove(id, actorOf(user));
  }

  @Get(':id/members')
  @MinRole('viewer')
  @ApiReturns('ContactGroupMembersPage')
  @ApiOperation(
    'contactGroups.members',
    "A contact group's members",
    'A page of the members, by name (a Beacon user by e-mail), optionally those whose name, e-mail or phone number contains `search`.',
  )
  @ApiErrors({ 404: ['contact_group_not_found'] })
  members(@Param('id', groupId) id: string, @Query() q: ContactMembersQuery) {
    return this.groups.members(id, q);
  }

  @Post(':id/members')
  @ApiReturns('ContactGroupMember')
  @ApiOperation(
    'contactGroups.addMember',
    'Add a member to a contact group',
    "Adds the Beacon user with this account e-mail ({kind:'user', email}; known once they have set up alerts), or a person " +
      "without an account ({kind:'external', name, phone?, email?, language?}), checked as an import row is " +
      '(a name, a phone in E.164 and/or an e-mail, a supported language, English when left out).',
  )
  @ApiErrors({
    400: ['invalid_contact'],
    404: ['contact_group_not_found', 'contact_user_not_found'],
    409: ['contact_member_exists'],
  })
  addMember(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string, @Body() dto: AddContactMemberDto) {
    return this.groups.addMember(id, dto, actorOf(user));
  }

  @Delete(':id/members/:memberId')
  @HttpCode(200)
  @ApiReturns('Ok')
  @ApiOperation(
    'contactGroups.removeMember',
    'Remove a member from a contact group',
    'Takes the member (a Beacon user or an external contact) out of the group.',
  )
  @ApiErrors({ 404: ['contact_group_not_found', 'contact_member_not_found'] })
  removeMember(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string, @Param('memberId', memberId) member: string) {
    return this.groups.removeMember(id, member, actorOf(user));
  }

  @Post(':id/import/preview')
  @HttpCode(200)
  @ApiReturns('ContactImportPreview')
  @ApiOperation(
    'contactGroups.previewImport',
    'Preview a CSV import into a contact group',
    `The request body is the CSV file itself (Content-Type: text/csv, UTF-8, at most ${CONTACT_IMPORT_LIMITS.maxBytes} bytes and ` +
      `${CONTACT_IMPORT_LIMITS.maxRows} rows): a header row naming the columns ${CONTACT_CSV_COLUMNS.join(', ')} (any case and order, ` +
      'others ignored; comma, semicolon or tab separated), one contact per row. Nothing is written: the answer lists the contacts ' +
      'to create and to update, how many rows are unchanged, and each rejected row with its line and reason, with a token that ' +
      `applies exactly this within ${CONTACT_IMPORT_PREVIEW_TTL_SECONDS / 60} minutes.`,
  )
  @ApiErrors({
    400: ['import_csv_invalid', 'import_header_invalid', 'import_too_many_rows', 'invalid_characters'],
    404: ['contact_group_not_found'],
    413: ['import_too_large'],
    415: ['unsupported_media_type'],
  })
  async previewImport(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string, @Req() req: Request) {
    return this.groups.previewImport(id, await readCsvBody(req), actorOf(user));
  }

  @Post(':id/import')
  @HttpCode(200)
  @ApiReturns('ContactImportResult')
  @ApiOperation(
    'contactGroups.import',
    'Apply a previewed CSV import',
    "Applies the preview the token names, in one transaction: the rows it listed are created and updated, nothing else. 409 when it expired or was applied already, or when the group's members changed since.",
  )
  @ApiErrors({ 404: ['contact_group_not_found'], 409: ['import_preview_expired', 'import_preview_stale'] })
  applyImport(@CurrentUser() user: AuthUser, @Param('id', groupId) id: string, @Body() dto: ConfirmImportDto) {
    return this.groups.applyImport(id, dto.token, actorOf(user));
  }

  @Get(':id/export')
  @MinRole('viewer')
  @RateLimited('csvExports')
  @ApiFile('text/csv')
  @ApiOperation(
    'contactGroups.export',
    "Export a contact group's external contacts",
    `The group's external contacts as CSV (${CONTACT_CSV_COLUMNS.join(', ')}), formula-safe, which the import reads back unchanged. Beacon users are not in it.`,
  )
  @ApiErrors({ 404: ['contact_group_not_found'] })
  async exportCsv(@Param('id', groupId) id: string, @Res({ passthrough: true }) res: Response) {
    const { fileName, csv } = await this.groups.exportCsv(id);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${fileName}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return csv;
  }

  @Get(':id/audit')
  @MinRole('viewer')
  @ApiReturns('ContactGroupAuditPage')
  @ApiOperation('contactGroups.audit', "A contact group's audit trail", 'Every change of the group and its members, newest first: what, who and when.')
  @ApiErrors({ 404: ['contact_group_not_found'] })
  auditTrail(@Param('id', groupId) id: string, @Query() q: ContactAuditQuery) {
    return this.groups.auditTrail(id, q);
  }
}
