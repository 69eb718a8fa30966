import { useState } from 'react';
import { WA_NO_TEMPLATES_TEXT } from './constants';
import { describeError } from '../../shared/errors';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Button } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { Loading } from '../../shared/ui/Loading';
import { Modal } from '../../shared/ui/Modal';
import { TextField } from '../../shared/ui/TextField';
import type { MessageDraft } from '../../shared/chat/types';
import { templateDraft } from './sends';
import { emptyParameters, parametersComplete, renderTemplate, type TemplateParameters } from './templates';
import { TemplateView } from './TemplateView';
import { fetchTemplates, type WaTemplate } from './whatsappApi';

interface TemplatePickerProps {
  sessionId: string;
  onSend: (draft: MessageDraft) => void;
  onClose: () => void;
}

/** Picks one of the channel's approved templates, fills its parameters with a live preview, and sends it (1021). */
export function TemplatePicker({ sessionId, onSend, onClose }: TemplatePickerProps) {
  const templates = useAsyncData(sessionId, (signal) => fetchTemplates(sessionId, signal));
  const [chosen, setChosen] = useState<WaTemplate | null>(null);
  return (
    <Modal title="Send a template" onClose={onClose} wide>
      {templates.status === 'loading' && <Loading />}
      {templates.status === 'error' && <ErrorBox lines={describeError(templates.error)} />}
      {templates.status === 'success' &&
        (templates.data.templates.length === 0 ? (
          <p className="text-sm text-slate-600">{WA_NO_TEMPLATES_TEXT}</p>
        ) : (
          <div className="space-y-4">
            <ul aria-label="Templates" className="flex flex-wrap gap-2">
              {templates.data.templates.map((template) => {
                const selected = chosen?.name === template.name && chosen.language === template.language;
                return (
                  <li key={`${template.name}/${template.language}`}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      onClick={() => setChosen(template)}
                      className={`rounded-full px-3 py-1.5 text-sm font-medium ring-1 ${selected ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'}`}
                    >
                      {template.name} <span className={selected ? 'text-brand-100' : 'text-slate-500'}>· {template.language}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            {chosen && (
              <TemplateForm
                key={`${chosen.name}/${chosen.language}`}
                template={chosen}
                onSend={(parameters) => {
                  onSend(templateDraft(chosen, parameters));
                  onClose();
                }}
              />
            )}
          </div>
        ))}
    </Modal>
  );
}

const PARTS = [
  ['header', 'Header'],
  ['body', 'Body'],
  ['buttons', 'Button link'],
] as const;

function TemplateForm({ template, onSend }: { template: WaTemplate; onSend: (parameters: TemplateParameters) => void }) {
  const [parameters, setParameters] = useState(() => emptyParameters(template));
  const set = (part: keyof TemplateParameters, index: number, value: string) =>
    setParameters((current) => ({ ...current, [part]: current[part].map((entry, at) => (at === index ? value : entry)) }));
  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (parametersComplete(parameters)) onSend(parameters);
      }}
    >
      <div className="space-y-3">
        {PARTS.flatMap(([part, label]) =>
          parameters[part].map((value, index) => (
            <TextField
              key={`${part}-${index}`}
              id={`template-${part}-${index}`}
              label={`${label} {{${index + 1}}}`}
              value={value}
              onChange={(event) => set(part, index, event.target.value)}
            />
          )),
        )}
        <Button type="submit" disabled={!parametersComplete(parameters)}>
          Send template
        </Button>
      </div>
      <section aria-label="Preview" className="rounded-2xl bg-slate-100 p-3">
        <h3 className="mb-2 text-xs font-semibold text-slate-600 uppercase">Preview</h3>
        <div className="rounded-2xl rounded-br-md bg-brand-100 px-3 py-2 text-slate-900 ring-1 ring-brand-200">
          <TemplateView template={renderTemplate(template, parameters)} />
        </div>
      </section>
    </form>
  );
}
