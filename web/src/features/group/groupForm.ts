import { MEMBER_TYPES } from '../../shared/constants';
import type { Group } from '../../shared/entities/group';
import type { GroupFields } from './groupApi';

/** The group form as typed: tags as one comma-separated line. */
export interface GroupForm {
  title: string;
  description: string;
  image: string;
  tags: string;
  isPublic: boolean;
  isReadAllowed: boolean;
  writePermission: number;
}

/** A new group's form (private, every member writes), or the saved group's. */
export function formFromGroup(group: Group | null): GroupForm {
  return {
    title: group?.title ?? '',
    description: group?.description ?? '',
    image: group?.image ?? '',
    tags: group?.data.tags.join(', ') ?? '',
    isPublic: group?.is_public ?? false,
    isReadAllowed: group?.is_read_allowed ?? false,
    writePermission: group?.write_permission ?? MEMBER_TYPES.member,
  };
}

/** Comma-separated tags as the server stores them: trimmed, unique, none empty. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}

/** What the server is sent, or the message for a field the form cannot send as it is. */
export function fieldsFromForm(form: GroupForm): { fields: GroupFields; errors: Record<string, string> } {
  const title = form.title.trim();
  return {
    fields: {
      title,
      description: form.description.trim(),
      image: form.image,
      tags: parseTags(form.tags),
      is_public: form.isPublic,
      is_read_allowed: form.isReadAllowed,
      write_permission: form.writePermission,
    },
    errors: title ? {} : { title: 'Give the group a title' },
  };
}
