import { useState, type FormEvent } from 'react';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { Modal } from '../../shared/ui/Modal';
import { Field, TextField, inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import type { Group } from '../feed/feedApi';
import { updateGroup } from './groupApi';

/** Admins' editor for the title, description and the tags posts can carry. */
export function GroupEditor({ group, onSaved, onClose }: { group: Group; onSaved: (group: Group) => void; onClose: () => void }) {
  const ui = useUi();
  const [title, setTitle] = useState(group.title);
  const [description, setDescription] = useState(group.description);
  const [tags, setTags] = useState(group.data.tags.join(', '));

  const save = useAsyncAction(async () => {
    try {
      const reply = await updateGroup(group._id, {
        title: title.trim(),
        description: description.trim(),
        tags: [...new Set(tags.split(',').map((tag) => tag.trim()).filter(Boolean))],
      });
      onSaved(reply.group);
    } catch (error) {
      ui.showError(error);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <Modal title="Edit group" onClose={onClose}>
      <form onSubmit={onSubmit} className="space-y-4">
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
        <TextField id="group-tags" label="Tags" hint="Separated by commas" value={tags} onChange={(event) => setTags(event.target.value)} />
        <div className="flex justify-end">
          <Button type="submit" busy={save.busy}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}
