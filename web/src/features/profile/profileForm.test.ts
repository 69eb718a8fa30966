import { describe, expect, it } from 'vitest';
import { contactFromPhoneNumber } from '../../shared/contact';
import type { User } from '../../shared/entities/user';
import { diffProfile, type ProfileForm } from './profileForm';

const user: User = {
  _id: 'u1',
  name: 'Ada',
  image: '',
  phone_number: '+31612345678',
  email_id: 'ada@example.com',
  data: { notifications_unseen_count: 0 },
  created_at: 0,
};

const unchanged = (): ProfileForm => ({
  name: user.name,
  image: user.image,
  email: user.email_id ?? '',
  phone: contactFromPhoneNumber(user.phone_number),
});

describe('diffProfile', () => {
  it('finds no changes in the saved values', () => {
    expect(diffProfile(user, unchanged())).toEqual({ changes: {}, errors: {} });
  });

  it('sends only what changed, trimmed', () => {
    const form = { ...unchanged(), name: ' Ada L. ', email: 'ada@lovelace.org ' };
    expect(diffProfile(user, form).changes).toEqual({ name: 'Ada L.', email_id: 'ada@lovelace.org' });
  });

  it('sends a changed phone number in E.164', () => {
    const form = { ...unchanged(), phone: { countryCode: '44', text: '07700 900123' } };
    expect(diffProfile(user, form).changes).toEqual({ phone_number: '+447700900123' });
  });

  it('lets the picture be removed, and leaves an emptied contact as it was', () => {
    const withImage = { ...user, image: 'https://img.example/ada.png' };
    const form = { ...unchanged(), image: '', email: '', phone: { countryCode: '31', text: '' } };
    expect(diffProfile(withImage, form)).toEqual({ changes: { image: '' }, errors: {} });
  });

  it('sends an uploaded picture', () => {
    const form = { ...unchanged(), image: '/uploads/6b04db3b52c4301f631003fb.jpg' };
    expect(diffProfile(user, form)).toEqual({ changes: { image: '/uploads/6b04db3b52c4301f631003fb.jpg' }, errors: {} });
  });

  it('rejects an empty name and a phone with letters', () => {
    const form = { ...unchanged(), name: '  ', phone: { countryCode: '31', text: '06abc' } };
    expect(Object.keys(diffProfile(user, form).errors).sort()).toEqual(['name', 'phone']);
  });
});
