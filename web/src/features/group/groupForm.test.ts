import { describe, expect, it } from 'vitest';
import type { Group } from '../../shared/entities/group';
import { fieldsFromForm, formFromGroup, parseTags } from './groupForm';

describe('parseTags', () => {
  it('trims, drops empties and repeats', () => {
    expect(parseTags(' bikes, ,cars,bikes ')).toEqual(['bikes', 'cars']);
  });
});

describe('the group form', () => {
  it('starts a new group private, with every member writing', () => {
    expect(fieldsFromForm({ ...formFromGroup(null), title: ' Choir ' })).toEqual({
      fields: { title: 'Choir', description: '', image: '', tags: [], is_public: false, is_read_allowed: false, write_permission: 20 },
      errors: {},
    });
  });

  it('sends a saved group back as it was, tags included', () => {
    const group = {
      title: 'Choir',
      description: 'We sing',
      image: '/uploads/a.png',
      is_public: true,
      is_read_allowed: false,
      write_permission: 10,
      data: { tags: ['Bass', 'Alto'] },
    } as Group;
    expect(fieldsFromForm(formFromGroup(group)).fields).toEqual({
      title: 'Choir',
      description: 'We sing',
      image: '/uploads/a.png',
      tags: ['Bass', 'Alto'],
      is_public: true,
      is_read_allowed: false,
      write_permission: 10,
    });
  });

  it('asks for a title', () => {
    expect(fieldsFromForm(formFromGroup(null)).errors).toEqual({ title: 'Give the group a title' });
  });
});
