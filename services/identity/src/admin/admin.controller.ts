import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AdminOnly, Caller, CurrentCaller, IdentityAuthGuard } from '../auth/auth.guard';
import { AdminService } from './admin.service';
import { AdminUserDto, DeleteUserDto, ListUsersQueryDto } from './dto/admin.dto';
import { ApiAccess, ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

const DEFAULT_PER_PAGE = 50;

/** The hosted service's admin user API, for access tokens whose app_metadata.role is 'admin'. */
@Controller('admin/users')
@UseGuards(IdentityAuthGuard)
@AdminOnly()
@ApiAccess('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  /** Pagination like the hosted service: X-Total-Count and a Link header with next and last pages. */
  @Get()
  @ApiReturns('IdentityUserList')
  @ApiOperation(
    'adminUsers.list',
    'List users',
    'Every account, page by page (page, per_page), like the hosted admin API: X-Total-Count and a Link header with the next and last pages.',
  )
  async list(@Query() query: ListUsersQueryDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { users, total } = await this.admin.list(page, perPage, query.filter);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const link = (p: number, rel: string) => `<${req.baseUrl}${req.path}?page=${p}&per_page=${perPage}>; rel="${rel}"`;
    const links = [...(page < lastPage ? [link(page + 1, 'next')] : []), link(lastPage, 'last')];
    res.setHeader('X-Total-Count', String(total));
    res.setHeader('Link', links.join(', '));
    return { users, aud: 'authenticated' };
  }

  @Post()
  @HttpCode(200)
  @ApiReturns('IdentityUser')
  @ApiOperation(
    'adminUsers.create',
    'Create a user',
    'Creates an account with an email address, and optionally a password, metadata, a role in app_metadata and a confirmed address.',
  )
  @ApiErrors({ 400: ['validation_failed'], 422: ['email_exists', 'validation_failed', 'weak_password'] })
  create(@Body() body: AdminUserDto) {
    return this.admin.create(body);
  }

  @Get(':id')
  @ApiReturns('IdentityUser')
  @ApiOperation('adminUsers.get', 'One user', 'One account by its id.')
  @ApiErrors({ 404: ['user_not_found'] })
  get(@Param('id') id: string) {
    return this.admin.get(id);
  }

  @Put(':id')
  @ApiReturns('IdentityUser')
  @ApiOperation(
    'adminUsers.update',
    'Update a user',
    "Changes an account's email address, password, metadata, role or ban. Administrators cannot remove their own admin role or ban themselves.",
  )
  @ApiErrors({ 400: ['validation_failed'], 404: ['user_not_found'], 422: ['email_exists', 'validation_failed', 'weak_password'] })
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: AdminUserDto) {
    return this.admin.update(caller, id, body);
  }

  @Delete(':id')
  @ApiReturns('Empty')
  @ApiOperation('adminUsers.delete', 'Delete a user', 'Deletes an account and ends its sessions. Administrators cannot delete their own account here.')
  @ApiErrors({ 404: ['user_not_found'], 422: ['validation_failed'] })
  remove(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() _body: DeleteUserDto) {
    return this.admin.delete(caller, id);
  }
}
