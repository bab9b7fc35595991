import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ContactGroup, ContactGroupMember, Language } from '@beacon/contracts';
import type { Contact } from './contact-row';
import type { ImportChanges, StoredContact } from './import-plan';

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const GROUP_COLUMNS = `g.id, g.name, g.description,
  (SELECT count(*) FROM alerts.contact_group_users u WHERE u.group_id = g.id)::int
    + (SELECT count(*) FROM alerts.external_contacts c WHERE c.group_id = g.id)::int AS "memberCount",
  (SELECT count(*) FROM alerts.external_contacts c WHERE c.group_id = g.id)::int AS "externalCount",
  ${ISO('g.created_at')} AS "createdAt", ${ISO('g.updated_at')} AS "updatedAt"`;

/** A unique violation: a group's name (regardless of case), or a member already in the group. */
export const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

interface MemberRow {
  id: string;
  kind: 'user' | 'external';
  user_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  language: Language | null;
  added_at: string;
}

/** A member of either kind, in one shape: the list, search and paging read both tables at once. */
const MEMBERS = `
  SELECT id, 'user' AS kind, user_id, NULL::text AS name, email, NULL::text AS phone, NULL::text AS language, added_at
  FROM alerts.contact_group_users WHERE group_id = $1
  UNION ALL
  SELECT id, 'external', NULL, name, email, phone, language, added_at
  FROM alerts.external_contacts WHERE group_id = $1`;

const toMember = (r: MemberRow): ContactGroupMember =>
  r.kind === 'user'
    ? { id: r.id, kind: 'user', userId: r.user_id!, email: r.email!, name: r.name, addedAt: r.added_at }
    : { id: r.id, kind: 'external', contactId: r.id, name: r.name!, phone: r.phone, email: r.email, language: r.language!, addedAt: r.added_at };

/** `text` matched literally inside a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A stored preview: what it will do, and the members it was worked out from. */
export interface StoredPreview {
  membersVersion: string;
  plan: ImportChanges;
  expired: boolean;
}

/**
 * Contact groups, their members (Beacon users and external contacts) and import previews. Changes of members run in
 * the caller's transaction (`m`) after lockGroup, which serialises them per group and moves members_version on.
 */
@Injectable()
export class ContactGroupsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  list(): Promise<ContactGroup[]> {
    return this.ds.query(`SELECT ${GROUP_COLUMNS} FROM alerts.contact_groups g ORDER BY lower(g.name), g.id`);
  }

  async find(id: string, m: EntityManager = this.ds.manager): Promise<ContactGroup | null> {
    const [row] = await m.query(`SELECT ${GROUP_COLUMNS} FROM alerts.contact_groups g WHERE g.id = $1`, [id]);
    return row ?? null;
  }

  /** The group's members_version, held (FOR SHARE) until `m` ends so its members stay as read; null when there is no group. */
  async membersVersion(m: EntityManager, id: string): Promise<string | null> {
    const [row] = await m.query(`SELECT members_version::text AS version FROM alerts.contact_groups WHERE id = $1 FOR SHARE`, [id]);
    return row?.version ?? null;
  }

  /** Locks the group for a change of its members (or of itself); null when there is none. */
  async lockGroup(m: EntityManager, id: string): Promise<{ name: string; description: string; membersVersion: string } | null> {
    const [row] = await m.query(`SELECT name, description, members_version::text AS "membersVersion" FROM alerts.contact_groups WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return row ?? null;
  }

  async insert(m: EntityManager, group: { name: string; description: string }, createdBy: string): Promise<string> {
    const [row] = await m.query(`INSERT INTO alerts.contact_groups (name, description, created_by) VALUES ($1, $2, $3) RETURNING id`, [
      group.name,
      group.description,
      createdBy,
    ]);
    return row.id;
  }

  async update(m: EntityManager, id: string, group: { name: string; description: string }): Promise<void> {
    await m.query(`UPDATE alerts.contact_groups SET name = $2, description = $3, updated_at = now() WHERE id = $1`, [id, group.name, group.description]);
  }

  async remove(m: EntityManager, id: string): Promise<void> {
    await m.query(`DELETE FROM alerts.contact_groups WHERE id = $1`, [id]);
  }

  /** After a change of the group's members: a preview made before it no longer applies. */
  async membersChanged(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE alerts.contact_groups SET members_version = members_version + 1, updated_at = now() WHERE id = $1`, [id]);
  }

  async memberCounts(m: EntityManager, id: string): Promise<{ users: number; externals: number }> {
    const [row] = await m.query(
      `SELECT (SELECT count(*) FROM alerts.contact_group_users WHERE group_id = $1)::int AS users,
              (SELECT count(*) FROM alerts.external_contacts WHERE group_id = $1)::int AS externals`,
      [id],
    );
    return row;
  }

  /** A page of members, by name (a user, who has none here, by e-mail); `search` matches name, e-mail or phone. */
  async members(groupId: string, q: { search?: string; offset: number; limit: number }): Promise<{ items: ContactGroupMember[]; total: number }> {
    const text = q.search?.trim();
    const digits = text?.replace(/[\s().\-]/g, '');
    const where = text ? `WHERE name ILIKE $2 OR email ILIKE $2 OR ($3 <> '' AND phone LIKE $3)` : '';
    const params = text ? [groupId, `%${likeEscaped(text)}%`, /^\+?\d+$/.test(digits!) ? `%${digits}%` : ''] : [groupId];
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM (${MEMBERS}) m ${where}`, params);
    const rows: MemberRow[] = await this.ds.query(
      `SELECT id, kind, user_id, name, email, phone, language, ${ISO('added_at')} AS added_at FROM (${MEMBERS}) m ${where}
       ORDER BY lower(coalesce(name, email)), id LIMIT ${q.limit} OFFSET ${q.offset}`,
      params,
    );
    return { items: rows.map(toMember), total };
  }

  async member(m: EntityManager, groupId: string, memberId: string): Promise<ContactGroupMember | null> {
    const [row] = await m.query(`SELECT id, kind, user_id, name, email, phone, language, ${ISO('added_at')} AS added_at FROM (${MEMBERS}) m WHERE id = $2`, [
      groupId,
      memberId,
    ]);
    return row ? toMember(row) : null;
  }

  /** The group's external contacts, for an import to be planned against and for the export. */
  async contacts(groupId: string, m: EntityManager = this.ds.manager): Promise<StoredContact[]> {
    return m.query(`SELECT id, name, phone, email, language FROM alerts.external_contacts WHERE group_id = $1 ORDER BY lower(name), added_at, id`, [groupId]);
  }

  /** The external contact with this phone or e-mail in the group, if any. */
  async contactMatching(m: EntityManager, groupId: string, c: { phone: string | null; email: string | null }): Promise<StoredContact | null> {
    const [row] = await m.query(
      `SELECT id, name, phone, email, language FROM alerts.external_contacts
       WHERE group_id = $1 AND (phone = $2 OR email_key = lower($3)) ORDER BY added_at LIMIT 1`,
      [groupId, c.phone, c.email],
    );
    return row ?? null;
  }

  /**
   * The Beacon user whose account has this e-mail, from the alerts service's own copy of it (user_preferences.email,
   * written from the account's token when they save preferences or subscribe a device): the alerts service reads no
   * other service's tables. Of two rows with the address (an account deleted and made again), the newer. An external
   * contact's recipient row (`external`, the mirror of a group's contact) is no account, whatever its address.
   */
  async userByEmail(email: string): Promise<{ userId: string; email: string } | null> {
    const [row] = await this.ds.query(
      `SELECT user_id AS "userId", email FROM alerts.user_preferences WHERE lower(email) = lower($1) AND email IS NOT NULL AND NOT external
       ORDER BY updated_at DESC, user_id LIMIT 1`,
      [email],
    );
    return row ?? null;
  }

  async hasUser(m: EntityManager, groupId: string, userId: string): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM alerts.contact_group_users WHERE group_id = $1 AND user_id = $2`, [groupId, userId]);
    return rows.length > 0;
  }

  async addUser(m: EntityManager, groupId: string, user: { userId: string; email: string }, addedBy: string): Promise<string> {
    const [row] = await m.query(`INSERT INTO alerts.contact_group_users (group_id, user_id, email, added_by) VALUES ($1, $2, $3, $4) RETURNING id`, [
      groupId,
      user.userId,
      user.email,
      addedBy,
    ]);
    return row.id;
  }

  async addContacts(m: EntityManager, groupId: string, contacts: Contact[], addedBy: string): Promise<string[]> {
    if (!contacts.length) return [];
    const rows: { id: string }[] = await m.query(
      `INSERT INTO alerts.external_contacts (group_id, name, phone, email, language, added_by)
       SELECT $1, name, phone, email, language, $6
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS c(name, phone, email, language)
       RETURNING id`,
      [groupId, contacts.map((c) => c.name), contacts.map((c) => c.phone), contacts.map((c) => c.email), contacts.map((c) => c.language), addedBy],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Each contact as given, in one statement. The unique keys are checked row by row, so a phone or e-mail passed from
   * one contact to another here could fail on the order of rows: planImport never plans one.
   */
  async updateContacts(m: EntityManager, groupId: string, contacts: StoredContact[]): Promise<number> {
    if (!contacts.length) return 0;
    const [, count] = await m.query(
      `UPDATE alerts.external_contacts c SET name = u.name, phone = u.phone, email = u.email, language = u.language, updated_at = now()
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(id, name, phone, email, language)
       WHERE c.id = u.id AND c.group_id = $1`,
      [
        groupId,
        contacts.map((c) => c.id),
        contacts.map((c) => c.name),
        contacts.map((c) => c.phone),
        contacts.map((c) => c.email),
        contacts.map((c) => c.language),
      ],
    );
    return count;
  }

  /** Removes the member (of either kind) from the group: false when it has no such member. */
  async removeMember(m: EntityManager, groupId: string, memberId: string): Promise<boolean> {
    const [, users] = await m.query(`DELETE FROM alerts.contact_group_users WHERE group_id = $1 AND id = $2`, [groupId, memberId]);
    if (users > 0) return true;
    const [, contacts] = await m.query(`DELETE FROM alerts.external_contacts WHERE group_id = $1 AND id = $2`, [groupId, memberId]);
    return contacts > 0;
  }

  // ---------------------------------------------------------------- import previews

  /** Keeps a preview until `ttlSeconds` from now; previews past their time go at the same moment. */
  async savePreview(tokenHash: Buffer, groupId: string, membersVersion: string, plan: ImportChanges, createdBy: string, ttlSeconds: number) {
    await this.ds.query(`DELETE FROM alerts.contact_import_previews WHERE expires_at < now()`);
    await this.ds.query(
      `INSERT INTO alerts.contact_import_previews (token_hash, group_id, members_version, plan, created_by, expires_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, now() + make_interval(secs => $6))`,
      [tokenHash, groupId, membersVersion, JSON.stringify(plan), createdBy, ttlSeconds],
    );
  }

  /** The group's preview with this token hash, locked (call after lockGroup); null when there is none. */
  async takePreview(m: EntityManager, tokenHash: Buffer, groupId: string): Promise<StoredPreview | null> {
    // a DELETE answers [rows, count]
    const [rows] = await m.query(
      `DELETE FROM alerts.contact_import_previews WHERE token_hash = $1 AND group_id = $2
       RETURNING members_version::text AS "membersVersion", plan, expires_at < now() AS expired`,
      [tokenHash, groupId],
    );
    return rows[0] ?? null;
  }
}
