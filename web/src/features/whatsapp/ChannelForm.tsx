import { useState, type FormEvent } from 'react';
import { isApiError, splitFieldErrors } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { saveChannel, type ChannelForm as ChannelFields, type WaChannel } from './whatsappApi';

type FieldName = keyof ChannelFields;

/** The form's fields; secrets are typed in, never shown back: the server only says whether it keeps one. */
const FIELDS: ReadonlyArray<{ name: FieldName; label: string; secret?: 'has_access_token' | 'has_app_secret' | 'has_verify_token' }> = [
  { name: 'phone_number_id', label: 'Phone number id' },
  { name: 'business_account_id', label: 'Business account id' },
  { name: 'access_token', label: 'Access token', secret: 'has_access_token' },
  { name: 'app_secret', label: 'App secret', secret: 'has_app_secret' },
  { name: 'verify_token', label: 'Webhook verify token', secret: 'has_verify_token' },
];

export const cardClass = 'space-y-4 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6';

const FIELD_FOR_ERROR: Readonly<Record<string, string>> = Object.fromEntries(FIELDS.map(({ name }) => [name, name]));

/** Connects the group's WhatsApp Business number, or changes the connection. */
export function ChannelForm({ groupId, channel, onSaved }: { groupId: string; channel: WaChannel | null; onSaved: (channel: WaChannel) => void }) {
  const ui = useUi();
  const [form, setForm] = useState<ChannelFields>({
    phone_number_id: channel?.phone_number_id ?? '',
    business_account_id: channel?.business_account_id ?? '',
    access_token: '',
    app_secret: '',
    verify_token: '',
  });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});

  const save = useAsyncAction(async () => {
    try {
      const reply = await saveChannel(groupId, { ...form, phone_number_id: form.phone_number_id.trim(), business_account_id: form.business_account_id.trim() });
      setErrors({});
      setForm((current) => ({ ...current, access_token: '', app_secret: '', verify_token: '' }));
      if (reply.channel) onSaved(reply.channel);
      ui.toast('WhatsApp settings saved');
    } catch (error) {
      if (!isApiError(error)) return ui.showError(error);
      const { fields, rest } = splitFieldErrors(error.errors, FIELD_FOR_ERROR);
      setErrors(fields);
      if (rest) ui.showError(rest);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="channel-form" className={cardClass}>
      <h2 id="channel-form" className="text-lg font-semibold">
        {channel ? 'Change the connection' : 'Connect a number'}
      </h2>
      {FIELDS.map(({ name, label, secret }) => {
        const saved = secret !== undefined && channel?.[secret] === true;
        return (
          <TextField
            key={name}
            id={`channel-${name}`}
            label={saved ? `${label} (saved)` : label}
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'new-password' : 'off'}
            placeholder={saved ? 'Saved: leave empty to keep it' : undefined}
            hint={saved ? undefined : secret && 'Required to connect'}
            error={errors[name]}
            value={form[name]}
            onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))}
          />
        );
      })}
      <div className="flex justify-end">
        <Button type="submit" busy={save.busy}>
          {channel ? 'Save' : 'Connect'}
        </Button>
      </div>
    </form>
  );
}
