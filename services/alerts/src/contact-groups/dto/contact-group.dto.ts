import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { CONTACT_GROUP_LIMITS, ContactGroupInput, type ContactMemberInput } from '@beacon/contracts';
import { QueryInt } from '@beacon/common';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const NAME_REQUIRED = 'Group name is required';
const NAME_TOO_LONG = `Group name must be at most ${CONTACT_GROUP_LIMITS.nameMax} characters`;
const DESCRIPTION_TOO_LONG = `Description must be at most ${CONTACT_GROUP_LIMITS.descriptionMax} characters`;

/** POST /api/alerts/admin/contact-groups. */
export class CreateContactGroupDto implements ContactGroupInput {
  @Transform(trimmed)
  @MaxLength(CONTACT_GROUP_LIMITS.nameMax, { message: NAME_TOO_LONG })
  @IsNotEmpty({ message: NAME_REQUIRED })
  @IsString({ message: NAME_REQUIRED })
  name: string;

  @IsOptional()
  @Transform(trimmed)
  @MaxLength(CONTACT_GROUP_LIMITS.descriptionMax, { message: DESCRIPTION_TOO_LONG })
  @IsString({ message: 'Description must be text' })
  description?: string;
}

/** PATCH /api/alerts/admin/contact-groups/:id: a field left out keeps its value. */
export class UpdateContactGroupDto implements Partial<ContactGroupInput> {
  @IsOptional()
  @Transform(trimmed)
  @MaxLength(CONTACT_GROUP_LIMITS.nameMax, { message: NAME_TOO_LONG })
  @IsNotEmpty({ message: NAME_REQUIRED })
  @IsString({ message: NAME_REQUIRED })
  name?: string;

  @IsOptional()
  @Transform(trimmed)
  @MaxLength(CONTACT_GROUP_LIMITS.descriptionMax, { message: DESCRIPTION_TOO_LONG })
  @IsString({ message: 'Description must be text' })
  description?: string;
}

/**
 * POST /api/alerts/admin/contact-groups/:id/members: a Beacon user by e-mail, or an external contact. The contact's
 * fields are checked as a CSV row is (checkContactRow), so the form and the import refuse the same things alike.
 */
export class AddContactMemberDto {
  @IsIn(['user', 'external'], { message: "kind must be 'user' or 'external'" })
  kind: ContactMemberInput['kind'];

  @IsOptional()
  @IsString({ message: 'name must be text' })
  @MaxLength(1000, { message: 'name is too long' })
  name?: string;

  @IsOptional()
  @IsString({ message: 'phone must be text' })
  @MaxLength(100, { message: 'phone is too long' })
  phone?: string;

  @IsOptional()
  @IsString({ message: 'email must be text' })
  @MaxLength(320, { message: 'email is too long' })
  email?: string;

  @IsOptional()
  @IsString({ message: 'language must be text' })
  @MaxLength(100, { message: 'language is too long' })
  language?: string;
}

/** POST /api/alerts/admin/contact-groups/:id/import. */
export class ConfirmImportDto {
  @IsString({ message: 'token is required: the token of the preview to apply' })
  @IsNotEmpty({ message: 'token is required: the token of the preview to apply' })
  @MaxLength(200, { message: 'token is not a preview token' })
  token: string;
}

/** GET .../members: a page, optionally of the members whose name, e-mail or phone contains `search`. */
export class ContactMembersQuery {
  @QueryInt(1, 100_000)
  page: number = 1;

  @QueryInt(1, CONTACT_GROUP_LIMITS.membersPageSizeMax)
  pageSize: number = 50;

  @IsOptional()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;
}

/** GET .../audit: a page, newest first. */
export class ContactAuditQuery {
  @QueryInt(1, 100_000)
  page: number = 1;

  @QueryInt(1, CONTACT_GROUP_LIMITS.auditPageSizeMax)
  pageSize: number = 50;
}
