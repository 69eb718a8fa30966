import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { OTP_DEFAULT_LENGTH, PATHS } from '../../shared/constants';
import { PROFILE_IMAGE_MAX_BYTES } from './constants';
import { contactFromPhoneNumber } from '../../shared/contact';
import { isApiError, splitFieldErrors } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button, buttonClass } from '../../shared/ui/Button';
import { ContactField } from '../../shared/ui/ContactField';
import { PicturePicker } from '../../shared/ui/PicturePicker';
import { TextField } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { updateCurrentUser } from '../../shared/session/currentUser';
import { RequireUser } from '../../shared/session/RequireUser';
import type { User } from '../../shared/entities/user';
import { updateProfile, type ConfirmationCode, type ProfileChanges } from './profileApi';
import { diffProfile, type ProfileForm } from './profileForm';

const FIELD_FOR_ERROR: Readonly<Record<string, string>> = {
  name: 'name',
  image: 'image',
  email_id: 'email',
  phone_number: 'phone',
  otp: 'otp',
};

export function EditProfilePage() {
  return <RequireUser>{(user) => <EditProfileForm user={user} />}</RequireUser>;
}

function EditProfileForm({ user }: { user: User }) {
  const ui = useUi();
  const navigate = useNavigate();
  const [form, setForm] = useState<ProfileForm>(() => ({
    name: user.name,
    image: user.image ?? '',
    email: user.email_id ?? '',
    phone: contactFromPhoneNumber(user.phone_number),
  }));
  /** Set once the server asked to confirm a new e-mail address or phone number. */
  const [code, setCode] = useState<ConfirmationCode | null>(null);
  const [otp, setOtp] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState(false);

  const { changes, errors } = diffProfile(user, form);
  const hasChanges = Object.keys(changes).length > 0;

  const edit = <K extends keyof ProfileForm>(key: K, value: ProfileForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    // A code confirms one particular address; editing the address asks for a new one.
    if (key === 'email' || key === 'phone') setCode(null);
  };

  const save = useAsyncAction(async (body: ProfileChanges & { otp?: string }) => {
    setFieldErrors({});
    try {
      const reply = await updateProfile(body);
      if ('require' in reply) {
        setCode(reply.data);
        setOtp('');
        return;
      }
      updateCurrentUser(() => reply.user);
      ui.toast('Profile saved');
      navigate(PATHS.profile);
    } catch (error) {
      if (!isApiError(error)) throw error;
      const { fields, rest } = splitFieldErrors(error.errors, FIELD_FOR_ERROR);
      setFieldErrors(fields);
      if (rest) ui.showError(rest);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(errors).length > 0) {
      setFieldErrors(errors);
      return;
    }
    void save.run(code ? { ...changes, otp: otp.trim() } : changes);
  };

  return (
    <div className="mx-auto max-w-xl px-4 py-6 sm:py-10">
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight">Edit profile</h1>
        <p className="text-sm text-slate-500">How others see you, and how you log in.</p>
      </div>

      <form onSubmit={onSubmit} noValidate className="space-y-5 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <TextField
          id="profile-name"
          label="Name"
          autoComplete="name"
          value={form.name}
          onChange={(event) => edit('name', event.target.value)}
          error={fieldErrors.name}
        />
        <PicturePicker
          id="profile-image"
          label="Your picture"
          name={form.name || user.name}
          round
          value={form.image}
          onChange={(url) => edit('image', url)}
          maxBytes={PROFILE_IMAGE_MAX_BYTES}
          error={fieldErrors.image}
          onUploadingChange={setUploading}
        />
        <TextField
          id="profile-email"
          label="E-mail"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={form.email}
          onChange={(event) => edit('email', event.target.value)}
          error={fieldErrors.email}
        />
        <ContactField
          id="profile-phone"
          label="Phone number"
          type="tel"
          autoComplete="tel-national"
          placeholder="612345678"
          value={form.phone}
          onChange={(phone) => edit('phone', phone)}
          error={fieldErrors.phone}
          hint="A new e-mail address or phone number is confirmed with a code."
        />
        {code && (
          <div className="space-y-2 rounded-2xl bg-brand-50 p-4">
            <TextField
              id="profile-otp"
              label={`Code sent to ${code.sent_to}`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={code.otp_length ?? OTP_DEFAULT_LENGTH}
              className="tracking-[0.3em]"
              value={otp}
              onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
              error={fieldErrors.otp}
              autoFocus
            />
            <button
              type="button"
              disabled={save.busy}
              onClick={() => void save.run(changes)}
              className="text-sm font-medium text-brand-700 hover:underline disabled:opacity-50"
            >
              Resend code
            </button>
          </div>
        )}
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Link to={PATHS.profile} className={buttonClass('ghost')}>
            Cancel
          </Link>
          <Button type="submit" busy={save.busy} disabled={!hasChanges || uploading}>
            {code ? 'Verify and save' : 'Save'}
          </Button>
        </div>
      </form>
    </div>
  );
}
