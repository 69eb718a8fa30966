import { useState, type FormEvent } from 'react';
import {
  ALLOW_NON_MEMBERS_READ_CONFIRM,
  GROUP_IMAGE_MAX_BYTES,
  INVALID_IMAGE_LINK_TEXT,
  MAKE_GROUP_PUBLIC_CONFIRM,
  NON_MEMBERS_CAN_READ_TEXT,
  PUBLIC_GROUP_LABEL,
  UPLOAD_ALLOWED_TYPES,
} from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useFileUploads } from '../../shared/hooks/useFileUploads';
import { Button } from '../../shared/ui/Button';
import { Modal } from '../../shared/ui/Modal';
import { Field, TextField, inputClass } from '../../shared/ui/TextField';
import { useUi, type Ui } from '../../shared/ui/uiContext';
import type { Group } from '../../shared/entities/group';
import { updateGroup } from './groupApi';
import { isImageLink, parseTags } from './groupForm';

/** Admins' editor for the group's look, who may see it, and the tags posts can carry. */
export function GroupEditor({ group, onSaved, onClose }: { group: Group; onSaved: (group: Group) => void; onClose: () => void }) {
  const ui = useUi();
  const [title, setTitle] = useState(group.title);
  const [description, setDescription] = useState(group.description);
  const [image, setImage] = useState(group.image);
  const [isPublic, setIsPublic] = useState(group.is_public);
  const [isReadAllowed, setIsReadAllowed] = useState(group.is_read_allowed);
  const [tags, setTags] = useState(group.data.tags.join(', '));
  const imageError = isImageLink(image.trim()) ? undefined : INVALID_IMAGE_LINK_TEXT;
  const picture = useFileUploads({ maxBytes: GROUP_IMAGE_MAX_BYTES, allowedTypes: UPLOAD_ALLOWED_TYPES }, (uploaded) => setImage(uploaded.file_url));

  const save = useAsyncAction(async () => {
    try {
      const reply = await updateGroup(group._id, {
        title: title.trim(),
        description: description.trim(),
        image: image.trim(),
        is_public: isPublic,
        is_read_allowed: isReadAllowed,
        tags: parseTags(tags),
      });
      onSaved(reply.group);
    } catch (error) {
      ui.showError(error);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!imageError) void save.run();
  };

  return (
    <Modal title="Edit group" onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField id="group-title" label="Title" value={title} onChange={(event) => setTitle(event.target.value)} />
        <Field id="group-description" label="Description">
          <textarea
            id="group-description"
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            className={`${inputClass} h-auto py-2`}
          />
        </Field>
        <TextField
          id="group-image"
          label="Image"
          type="url"
          placeholder="https://"
          hint="A picture you upload, or a link (we keep a copy)"
          error={imageError}
          value={image}
          onChange={(event) => setImage(event.target.value)}
        />
        <label className="inline-flex cursor-pointer">
          <span className={`text-sm font-medium text-brand-700 hover:underline ${picture.uploading ? 'opacity-60' : ''}`}>
            {picture.uploading ? 'Uploading…' : 'Upload picture'}
          </span>
          <input
            type="file"
            aria-label="Upload picture"
            accept={UPLOAD_ALLOWED_TYPES.join(',')}
            disabled={picture.uploading}
            className="hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void picture.upload(file);
            }}
          />
        </label>
        <Switch id="group-public" label={PUBLIC_GROUP_LABEL} checked={isPublic} onChange={confirmingOn(ui, setIsPublic, MAKE_GROUP_PUBLIC_CONFIRM)} />
        {/* Anyone can read a public group, so the switch only matters for private ones. */}
        <Switch
          id="group-read-allowed"
          label={NON_MEMBERS_CAN_READ_TEXT}
          checked={isReadAllowed}
          disabled={isPublic}
          onChange={confirmingOn(ui, setIsReadAllowed, ALLOW_NON_MEMBERS_READ_CONFIRM)}
        />
        <TextField id="group-tags" label="Tags" hint="Separated by commas" value={tags} onChange={(event) => setTags(event.target.value)} />
        <div className="flex justify-end">
          <Button type="submit" busy={save.busy} disabled={picture.uploading}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
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
