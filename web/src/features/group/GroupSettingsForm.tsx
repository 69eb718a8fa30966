import { useState, type FormEvent, type ReactNode } from 'react';
import { ALLOW_NON_MEMBERS_READ_CONFIRM, GROUP_IMAGE_MAX_BYTES, MAKE_GROUP_PUBLIC_CONFIRM, NON_MEMBERS_CAN_READ_TEXT, PUBLIC_GROUP_LABEL, WRITE_PERMISSION_CHOICES } from './constants';
import { isApiError, splitFieldErrors } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { PicturePicker } from '../../shared/ui/PicturePicker';
import { Field, TextField, describedBy, inputClass } from '../../shared/ui/TextField';
import { useUi, type Ui } from '../../shared/ui/uiContext';
import type { GroupFields } from './groupApi';
import { fieldsFromForm, type GroupForm as GroupFormState } from './groupForm';

const WRITE_PERMISSION_HINT = "Who may post, and write in the group's chat";

/** The server's field names, as the form names its fields. */
const FIELD_FOR_ERROR: Readonly<Record<string, string>> = {
  title: 'title',
  description: 'description',
  image: 'image',
  tags: 'tags',
  write_permission: 'writePermission',
};

interface GroupSettingsFormProps {
  initial: GroupFormState;
  submitLabel: string;
  /** Sends the fields; a refusal it throws is shown next to its fields (the rest in the popup). */
  onSubmit: (fields: GroupFields) => Promise<void>;
  /** Under the fields, beside the submit button (a way back). */
  children?: ReactNode;
}

/** A group's title, description, picture, tags, who may read and who may write: creating one, or its admin's settings. */
export function GroupSettingsForm({ initial, submitLabel, onSubmit, children }: GroupSettingsFormProps) {
  const ui = useUi();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState(false);
  const edit = <K extends keyof GroupFormState>(key: K, value: GroupFormState[K]) => setForm((current) => ({ ...current, [key]: value }));

  const save = useAsyncAction(async (fields: GroupFields) => {
    setErrors({});
    try {
      await onSubmit(fields);
    } catch (error) {
      if (!isApiError(error)) throw error;
      const { fields: fieldErrors, rest } = splitFieldErrors(error.errors, FIELD_FOR_ERROR);
      setErrors(fieldErrors);
      if (rest) ui.showError(rest);
    }
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { fields, errors: invalid } = fieldsFromForm(form);
    if (Object.keys(invalid).length > 0) setErrors(invalid);
    else void save.run(fields);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField id="group-title" label="Title" value={form.title} error={errors.title} onChange={(event) => edit('title', event.target.value)} />
      <Field id="group-description" label="Description" error={errors.description}>
        <textarea
          id="group-description"
          rows={3}
          value={form.description}
          onChange={(event) => edit('description', event.target.value)}
          className={`${inputClass} h-auto py-2`}
          {...describedBy('group-description', errors.description, undefined)}
        />
      </Field>
      <PicturePicker
        id="group-picture"
        label="Picture"
        name={form.title || '?'}
        value={form.image}
        onChange={(url) => edit('image', url)}
        maxBytes={GROUP_IMAGE_MAX_BYTES}
        error={errors.image}
        onUploadingChange={setUploading}
      />
      <TextField id="group-tags" label="Tags" hint="Separated by commas; posts can carry them" value={form.tags} error={errors.tags} onChange={(event) => edit('tags', event.target.value)} />
      <fieldset className="space-y-3 rounded-2xl bg-slate-50 p-4">
        <legend className="sr-only">Who may read</legend>
        <Switch id="group-public" label={PUBLIC_GROUP_LABEL} checked={form.isPublic} onChange={confirmingOn(ui, (on) => edit('isPublic', on), MAKE_GROUP_PUBLIC_CONFIRM)} />
        <p className="text-xs text-slate-500">Anyone may read and join a public group; a private one takes members you approve.</p>
        {/* Anyone can read a public group, so the switch only matters for private ones. */}
        <Switch
          id="group-read-allowed"
          label={NON_MEMBERS_CAN_READ_TEXT}
          checked={form.isReadAllowed}
          disabled={form.isPublic}
          onChange={confirmingOn(ui, (on) => edit('isReadAllowed', on), ALLOW_NON_MEMBERS_READ_CONFIRM)}
        />
      </fieldset>
      <Field id="group-write-permission" label="Who may write" error={errors.writePermission} hint={WRITE_PERMISSION_HINT}>
        <select
          id="group-write-permission"
          value={form.writePermission}
          onChange={(event) => edit('writePermission', Number(event.target.value))}
          className={inputClass}
          {...describedBy('group-write-permission', errors.writePermission, WRITE_PERMISSION_HINT)}
        >
          {WRITE_PERMISSION_CHOICES.map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        {children}
        <Button type="submit" busy={save.busy} disabled={uploading}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Opening the group up to more readers asks first; closing it down does not. */
function confirmingOn(ui: Ui, set: (on: boolean) => void, question: string) {
  return (on: boolean) => {
    if (!on) set(false);
    else void ui.confirm(question).then((yes) => yes && set(true));
  };
}

function Switch({ id, label, checked, disabled = false, onChange }: { id: string; label: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void }) {
  return (
    <label htmlFor={id} className={`flex items-center justify-between gap-3 text-sm font-medium text-slate-700 ${disabled ? 'opacity-60' : ''}`}>
      {label}
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className="size-5 accent-brand-600"
      />
    </label>
  );
}
