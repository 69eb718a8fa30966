import { toPhoneNumber, type ContactEntry } from '../../shared/contact';
import type { User } from '../../shared/entities/user';
import type { ProfileChanges } from './profileApi';

export interface ProfileForm {
  name: string;
  image: string;
  email: string;
  phone: ContactEntry;
}

/**
 * What the form changes relative to the saved user, or per-field messages when an entry
 * is unusable. An emptied e-mail or phone field leaves the saved value as it is: the
 * server keeps at least one way to log in.
 */
export function diffProfile(
  user: User,
  form: ProfileForm,
): { changes: ProfileChanges; errors: Record<string, string> } {
  const changes: ProfileChanges = {};
  const errors: Record<string, string> = {};

  const name = form.name.trim();
  if (!name) errors.name = 'Enter your name';
  else if (name !== user.name) changes.name = name;

  // An uploaded picture's path, or '' to show the initials: never typed, so nothing to check.
  if (form.image !== (user.image ?? '')) changes.image = form.image;

  const email = form.email.trim();
  if (email && email !== user.email_id) changes.email_id = email;

  if (form.phone.text.trim()) {
    const phone = toPhoneNumber(form.phone);
    if (!phone) errors.phone = 'Enter a phone number, digits only';
    else if (phone !== user.phone_number) changes.phone_number = phone;
  }

  return { changes, errors };
}
