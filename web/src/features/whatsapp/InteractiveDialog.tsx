import { useState } from 'react';
import { WA_BUTTON_TITLE_MAX, WA_MAX_BUTTONS, WA_MAX_LIST_ROWS } from './constants';
import { Button } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { Modal } from '../../shared/ui/Modal';
import { Field, TextField, inputClass } from '../../shared/ui/TextField';
import type { MessageDraft } from '../../shared/chat/types';
import { buttonsDraft, buttonsProblem, listDraft, listProblem } from './sends';

interface InteractiveDialogProps {
  kind: 'buttons' | 'list';
  onSend: (draft: MessageDraft) => void;
  onClose: () => void;
}

/** Builds reply buttons (up to 3) or a list (up to 10 rows) for the customer to choose from. */
export function InteractiveDialog({ kind, onSend, onClose }: InteractiveDialogProps) {
  const [body, setBody] = useState('');
  const [label, setLabel] = useState('');
  const [titles, setTitles] = useState<string[]>(() => Array.from({ length: WA_MAX_BUTTONS }, () => ''));
  const [rows, setRows] = useState([{ title: '', description: '' }]);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const filledRows = rows.filter((row) => row.title.trim() || row.description.trim());
    const refusal = kind === 'buttons' ? buttonsProblem(body, titles) : listProblem(body, label, filledRows);
    setProblem(refusal);
    if (refusal) return;
    onSend(kind === 'buttons' ? buttonsDraft(body, titles.filter((title) => title.trim())) : listDraft(body, label, filledRows));
    onClose();
  };

  return (
    <Modal title={kind === 'buttons' ? 'Send reply buttons' : 'Send a list'} onClose={onClose}>
      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field id="interactive-body" label="Message">
          <textarea id="interactive-body" rows={3} value={body} onChange={(event) => setBody(event.target.value)} className={`${inputClass} h-auto py-2`} />
        </Field>
        {kind === 'buttons' ? (
          titles.map((title, index) => (
            <TextField
              key={index}
              id={`button-${index}`}
              label={`Button ${index + 1}`}
              maxLength={WA_BUTTON_TITLE_MAX}
              value={title}
              onChange={(event) => setTitles((current) => current.map((entry, at) => (at === index ? event.target.value : entry)))}
            />
          ))
        ) : (
          <>
            <TextField id="list-label" label="Button that opens the list" maxLength={WA_BUTTON_TITLE_MAX} value={label} onChange={(event) => setLabel(event.target.value)} />
            {rows.map((row, index) => (
              <fieldset key={index} className="grid grid-cols-2 gap-2">
                <legend className="sr-only">Row {index + 1}</legend>
                <TextField
                  id={`row-title-${index}`}
                  label={`Row ${index + 1}`}
                  value={row.title}
                  onChange={(event) => setRows((current) => current.map((entry, at) => (at === index ? { ...entry, title: event.target.value } : entry)))}
                />
                <TextField
                  id={`row-description-${index}`}
                  label="Description"
                  value={row.description}
                  onChange={(event) => setRows((current) => current.map((entry, at) => (at === index ? { ...entry, description: event.target.value } : entry)))}
                />
              </fieldset>
            ))}
            {rows.length < WA_MAX_LIST_ROWS && (
              <Button variant="ghost" size="sm" onClick={() => setRows((current) => [...current, { title: '', description: '' }])}>
                Add a row
              </Button>
            )}
          </>
        )}
        {problem && <ErrorBox lines={[problem]} />}
        <div className="flex justify-end">
          <Button type="submit">Send</Button>
        </div>
      </form>
    </Modal>
  );
}
