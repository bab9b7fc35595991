import type {
  ContactGroup,
  ContactGroupAuditPage,
  ContactGroupInput,
  ContactGroupMember,
  ContactGroupMembersPage,
  ContactImportPreview,
  ContactImportResult,
  ContactMemberInput,
} from '@beacon/contracts';
import { api } from '@/app/api';

// The console's contact groups (issue #42), served by the alerts service, injected into the one api slice; the tag
// types are this feature's own.

const BASE = 'api/alerts/admin/contact-groups';
const groupPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** How many of a group's latest changes the page shows. */
export const AUDIT_PAGE_SIZE = 50;

export interface MembersQuery {
  id: string;
  page: number;
  pageSize: number;
  /** Members whose name, e-mail or phone number contains this; every member when empty. */
  search: string;
}

/** The URL of a group's CSV export (fetched with the access token by ExportCsvButton). */
export const contactGroupExportUrl = (id: string) => `/${groupPath(id)}/export`;

const contactGroupsApi = api.enhanceEndpoints({ addTagTypes: ['ContactGroup', 'ContactGroupMembers', 'ContactGroupAudit'] }).injectEndpoints({
  endpoints: (build) => ({
    contactGroups: build.query<ContactGroup[], void>({
      query: () => BASE,
      providesTags: [{ type: 'ContactGroup', id: 'LIST' }],
    }),
    contactGroup: build.query<ContactGroup, string>({
      query: (id) => groupPath(id),
      providesTags: (_r, _e, id) => [{ type: 'ContactGroup', id }],
    }),
    createContactGroup: build.mutation<ContactGroup, ContactGroupInput>({
      query: (body) => ({ url: BASE, method: 'POST', body }),
      invalidatesTags: [{ type: 'ContactGroup', id: 'LIST' }],
    }),
    updateContactGroup: build.mutation<ContactGroup, { id: string; changes: Partial<ContactGroupInput> }>({
      query: ({ id, changes }) => ({ url: groupPath(id), method: 'PATCH', body: changes }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'ContactGroup', id: 'LIST' },
        { type: 'ContactGroup', id },
        { type: 'ContactGroupAudit', id },
      ],
    }),
    deleteContactGroup: build.mutation<unknown, string>({
      query: (id) => ({ url: groupPath(id), method: 'DELETE' }),
      invalidatesTags: [{ type: 'ContactGroup', id: 'LIST' }],
    }),
    contactGroupMembers: build.query<ContactGroupMembersPage, MembersQuery>({
      query: ({ id, page, pageSize, search }) => ({ url: `${groupPath(id)}/members`, params: { page, pageSize, ...(search ? { search } : {}) } }),
      providesTags: (_r, _e, { id }) => [{ type: 'ContactGroupMembers', id }],
    }),
    addContactGroupMember: build.mutation<ContactGroupMember, { id: string; member: ContactMemberInput }>({
      query: ({ id, member }) => ({ url: `${groupPath(id)}/members`, method: 'POST', body: member }),
      invalidatesTags: (_r, _e, { id }) => membershipChanged(id),
    }),
    removeContactGroupMember: build.mutation<unknown, { id: string; memberId: string }>({
      query: ({ id, memberId }) => ({ url: `${groupPath(id)}/members/${encodeURIComponent(memberId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => membershipChanged(id),
    }),
    /** What importing `csv` would do; nothing is written (a mutation: each preview is asked for, never cached). */
    previewContactImport: build.mutation<ContactImportPreview, { id: string; csv: string }>({
      query: ({ id, csv }) => ({ url: `${groupPath(id)}/import/preview`, method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } }),
    }),
    /** Applies exactly the preview `token` names, or answers 409 when the group changed since. */
    importContacts: build.mutation<ContactImportResult, { id: string; token: string }>({
      query: ({ id, token }) => ({ url: `${groupPath(id)}/import`, method: 'POST', body: { token } }),
      invalidatesTags: (_r, _e, { id }) => membershipChanged(id),
    }),
    /** The latest changes, newest first. */
    contactGroupAudit: build.query<ContactGroupAuditPage, string>({
      query: (id) => ({ url: `${groupPath(id)}/audit`, params: { page: 1, pageSize: AUDIT_PAGE_SIZE } }),
      providesTags: (_r, _e, id) => [{ type: 'ContactGroupAudit', id }],
    }),
  }),
});

/** A membership change moves the member list, the counts in the group's row and the audit. */
function membershipChanged(id: string) {
  return [
    { type: 'ContactGroupMembers' as const, id },
    { type: 'ContactGroup' as const, id },
    { type: 'ContactGroup' as const, id: 'LIST' },
    { type: 'ContactGroupAudit' as const, id },
  ];
}

export const {
  useContactGroupsQuery,
  useContactGroupQuery,
  useCreateContactGroupMutation,
  useUpdateContactGroupMutation,
  useDeleteContactGroupMutation,
  useContactGroupMembersQuery,
  useAddContactGroupMemberMutation,
  useRemoveContactGroupMemberMutation,
  usePreviewContactImportMutation,
  useImportContactsMutation,
  useContactGroupAuditQuery,
} = contactGroupsApi;
