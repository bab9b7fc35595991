import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, badRequest, conflict, notFound } from '@beacon/common';
import {
  CONTACT_IMPORT_PREVIEW_TTL_SECONDS,
  type ContactGroup,
  type ContactGroupAuditPage,
  type ContactGroupMember,
  type ContactGroupMembersPage,
  type ContactImportPreview,
  type ContactImportResult,
} from '@beacon/contracts';
import type { Actor } from '../alerts/audit.repository';
import { ContactGroupAuditRepository } from './contact-group-audit.repository';
import { ContactGroupsRepository, isUniqueViolation } from './contact-groups.repository';
import { contactsCsv, readContactCsv } from './contact-csv';
import { checkContactRow, normaliseEmail } from './contact-row';
import { AddContactMemberDto, ContactAuditQuery, ContactMembersQuery, CreateContactGroupDto, UpdateContactGroupDto } from './dto/contact-group.dto';
import { asRowInput, ImportChanges, planImport } from './import-plan';

const groupNotFound = () => notFound('Contact group', 'contact_group_not_found');
const nameTaken = (name: string) => conflict(`A contact group named "${name}" already exists: choose another name`, 'contact_group_name_taken');
const previewExpired = () =>
  new AppError(409, 'import_preview_expired', 'This import preview has expired or was already applied: upload the file again to preview it');

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** Who an audit entry names, from the signed-in admin. */
export const actorOf = (user: { id: string; email?: string | null }): Actor & { id: string } => ({ id: user.id, email: user.email ?? null });

/**
 * Contact groups (issue #42): named lists of Beacon users and external contacts. Every change of a group or its
 * members is made under the group's row lock and recorded in its audit trail in the same transaction; a CSV import
 * is previewed (nothing written) and applied only by confirming the preview's token, whole or not at all.
 */
@Injectable()
export class ContactGroupsService {
  constructor(
    private readonly repo: ContactGroupsRepository,
    private readonly audit: ContactGroupAuditRepository,
  ) {}

  list(): Promise<ContactGroup[]> {
    return this.repo.list();
  }

  async get(id: string): Promise<ContactGroup> {
    return (await this.repo.find(id)) ?? Promise.reject(groupNotFound());
  }

  async create(dto: CreateContactGroupDto, by: Actor & { id: string }): Promise<ContactGroup> {
    const group = { name: dto.name, description: dto.description ?? '' };
    const id = await this.named(group.name, () =>
      this.repo.transaction(async (m) => {
        const id = await this.repo.insert(m, group, by.id);
        await this.audit.record(m, id, 'group_created', by, group);
        return id;
      }),
    );
    return (await this.repo.find(id))!;
  }

  async update(id: string, dto: UpdateContactGroupDto, by: Actor): Promise<ContactGroup> {
    await this.named(dto.name ?? '', () =>
      this.repo.transaction(async (m) => {
        const before = await this.locked(m, id);
        const after = { name: dto.name ?? before.name, description: dto.description ?? before.description };
        if (after.name === before.name && after.description === before.description) return;
        await this.repo.update(m, id, after);
        await this.audit.record(m, id, 'group_updated', by, { before: { name: before.name, description: before.description }, after });
      }),
    );
    return this.get(id);
  }

  async remove(id: string, by: Actor): Promise<{ ok: boolean }> {
    await this.repo.transaction(async (m) => {
      const group = await this.locked(m, id);
      const members = await this.repo.memberCounts(m, id);
      await this.audit.record(m, id, 'group_deleted', by, { name: group.name, description: group.description, members });
      await this.repo.remove(m, id);
    });
    return { ok: true };
  }

  async members(id: string, q: ContactMembersQuery): Promise<ContactGroupMembersPage> {
    await this.get(id);
    const { items, total } = await this.repo.members(id, { search: q.search, offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    return { items, total, page: q.page, pageSize: q.pageSize };
  }

  /** Adds a Beacon user (by their account's e-mail) or an external contact (checked as an import row is). */
  async addMember(id: string, dto: AddContactMemberDto, by: Actor & { id: string }): Promise<ContactGroupMember> {
    if (dto.kind === 'user') {
      const email = normaliseEmail(dto.email ?? '');
      if (!email) throw badRequest("Enter the e-mail address of the person's Beacon account", 'invalid_contact');
      const user = await this.repo.userByEmail(email);
      if (!user) {
        throw new AppError(
          404,
          'contact_user_not_found',
          `No Beacon user with the e-mail ${email} has set up alerts yet (saved their alert preferences or turned on notifications): add them as an external contact, or once they have`,
        );
      }
      return this.changeMembers(id, by, async (m) => {
        if (await this.repo.hasUser(m, id, user.userId)) throw conflict(`${user.email} is already in this group`, 'contact_member_exists');
        return this.repo.addUser(m, id, user, by.id);
      });
    }
    const checked = checkContactRow({ name: dto.name ?? '', phone: dto.phone, email: dto.email, language: dto.language });
    if ('problem' in checked) throw badRequest(checked.problem.message, 'invalid_contact', { problem: checked.problem.code });
    const { contact } = checked;
    return this.changeMembers(id, by, async (m) => {
      const same = await this.repo.contactMatching(m, id, contact);
      if (same) {
        const what = contact.phone && same.phone === contact.phone ? 'phone number' : 'e-mail address';
        throw conflict(`${same.name} is already in this group with this ${what}`, 'contact_member_exists');
      }
      const [contactId] = await this.repo.addContacts(m, id, [contact], by.id);
      return contactId;
    });
  }

  async removeMember(id: string, memberId: string, by: Actor): Promise<{ ok: boolean }> {
    await this.repo.transaction(async (m) => {
      await this.locked(m, id);
      const member = await this.repo.member(m, id, memberId);
      if (!member || !(await this.repo.removeMember(m, id, memberId))) throw notFound('Member', 'contact_member_not_found');
      await this.repo.membersChanged(m, id);
      await this.audit.record(m, id, 'member_removed', by, memberDetails(member));
    });
    return { ok: true };
  }

  /**
   * What importing `csv` would do, nothing written: the rows to create and update, how many are unchanged, each
   * rejected row with its reason, and a token that applies exactly this (for CONTACT_IMPORT_PREVIEW_TTL_SECONDS, while
   * the group's members stay as they are now).
   */
  async previewImport(id: string, csv: string, by: Actor & { id: string }): Promise<ContactImportPreview> {
    const rows = readContactCsv(csv);
    const { version, contacts } = await this.repo.transaction(async (m) => {
      const version = await this.repo.membersVersion(m, id);
      if (version === null) throw groupNotFound();
      return { version, contacts: await this.repo.contacts(id, m) };
    });
    const plan = planImport(rows, contacts);
    const token = randomBytes(32).toString('base64url');
    const changes: ImportChanges = { create: plan.create, update: plan.update, unchanged: plan.unchanged, rejected: plan.rejected.length };
    await this.repo.savePreview(hashOf(token), id, version, changes, by.id, CONTACT_IMPORT_PREVIEW_TTL_SECONDS);
    return {
      token,
      create: plan.create.map(asRowInput),
      update: plan.update.map(asRowInput),
      unchanged: plan.unchanged,
      rejected: plan.rejected,
    };
  }

  /** Applies the preview with this token, in one transaction: 409 when it expired or the group's members changed since. */
  async applyImport(id: string, token: string, by: Actor & { id: string }): Promise<ContactImportResult> {
    try {
      return await this.repo.transaction(async (m) => {
        const group = await this.locked(m, id);
        const preview = await this.repo.takePreview(m, hashOf(token), id);
        if (!preview || preview.expired) throw previewExpired();
        if (preview.membersVersion !== group.membersVersion) {
          throw conflict('The group has changed since this import was previewed: preview the file again', 'import_preview_stale');
        }
        const { create, update, unchanged, rejected } = preview.plan;
        await this.repo.addContacts(m, id, create, by.id);
        await this.repo.updateContacts(m, id, update);
        if (create.length || update.length) await this.repo.membersChanged(m, id);
        const result = { created: create.length, updated: update.length, unchanged, rejected };
        await this.audit.record(m, id, 'import_applied', by, result);
        return result;
      });
    } catch (e) {
      // the lock and the version rule this out; were a member added some other way in between, the import is stale
      if (isUniqueViolation(e)) throw conflict('The group has changed since this import was previewed: preview the file again', 'import_preview_stale');
      throw e;
    }
  }

  /** The group's external contacts as a CSV the import reads back unchanged (Beacon users are not in it: see the list). */
  async exportCsv(id: string): Promise<{ fileName: string; csv: string }> {
    const group = await this.get(id);
    // a name in a header: only letters and digits of it
    const slug =
      group.name
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase() || 'contacts';
    return { fileName: `contact-group-${slug}.csv`, csv: contactsCsv(await this.repo.contacts(id)) };
  }

  async auditTrail(id: string, q: ContactAuditQuery): Promise<ContactGroupAuditPage> {
    await this.get(id);
    const { items, total } = await this.audit.forGroup(id, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    return { items, total, page: q.page, pageSize: q.pageSize };
  }

  /** A change of members under the group's lock: the version moves on, the audit records it, the member is answered. */
  private async changeMembers(id: string, by: Actor, add: (m: EntityManager) => Promise<string>): Promise<ContactGroupMember> {
    return this.repo.transaction(async (m) => {
      await this.locked(m, id);
      const memberId = await add(m);
      await this.repo.membersChanged(m, id);
      const member = (await this.repo.member(m, id, memberId))!;
      await this.audit.record(m, id, 'member_added', by, memberDetails(member));
      return member;
    });
  }

  private async locked(m: EntityManager, id: string) {
    return (await this.repo.lockGroup(m, id)) ?? Promise.reject(groupNotFound());
  }

  /** A write that may find the name taken (names are unique regardless of case): 409 contact_group_name_taken. */
  private async named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name);
      throw e;
    }
  }
}

function memberDetails(member: ContactGroupMember): Record<string, unknown> {
  return member.kind === 'user'
    ? { memberId: member.id, kind: 'user', userId: member.userId, email: member.email }
    : { memberId: member.id, kind: 'external', name: member.name, phone: member.phone, email: member.email, language: member.language };
}
