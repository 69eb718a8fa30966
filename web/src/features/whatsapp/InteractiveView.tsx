import { useId, useState } from 'react';
import type { WaInteractive, WaListSection, WaReplyButton } from './whatsappApi';

const chip = 'rounded-lg bg-white/70 px-3 py-1.5 text-center text-sm font-semibold text-brand-800 ring-1 ring-brand-200';

/** Interactive messages: the agent's reply buttons or list as the customer sees them, or the customer's choice. */
export function InteractiveView({ interactive }: { interactive: WaInteractive }) {
  if (interactive.type === 'button_reply' || interactive.type === 'list_reply') {
    return (
      <p data-testid="wa-choice" className="text-[15px]">
        <span aria-hidden="true">↩ </span>
        <span className="sr-only">Chose: </span>
        <span className="font-semibold">{interactive.title}</span>
        {interactive.type === 'list_reply' && interactive.description && <span className="block text-sm text-slate-600">{interactive.description}</span>}
      </p>
    );
  }
  return (
    <div className="space-y-1.5">
      <p className="text-[15px] break-words whitespace-pre-line">{interactive.body}</p>
      {interactive.type === 'button' ? <ReplyButtons buttons={interactive.buttons} /> : <ListRows label={interactive.button} sections={interactive.sections} />}
    </div>
  );
}

function ReplyButtons({ buttons }: { buttons: readonly WaReplyButton[] }) {
  return (
    <ul aria-label="Reply buttons" className="grid gap-1">
      {buttons.map((button) => (
        <li key={button.id} className={chip}>
          {button.title}
        </li>
      ))}
    </ul>
  );
}

/** The list's button opens its rows, as it does on the customer's phone. */
function ListRows({ label, sections }: { label: string; sections: readonly WaListSection[] }) {
  const [open, setOpen] = useState(false);
  const rowsId = useId();
  return (
    <div>
      <button type="button" aria-expanded={open} aria-controls={rowsId} onClick={() => setOpen((value) => !value)} className={`w-full ${chip}`}>
        ☰ {label}
      </button>
      {open && (
        <div id={rowsId} className="mt-1 space-y-1 rounded-lg bg-white/70 p-2 ring-1 ring-slate-200">
          {sections.map((section) => (
            <section key={section.title} aria-label={section.title}>
              <h4 className="text-xs font-semibold text-slate-600 uppercase">{section.title}</h4>
              <ul>
                {section.rows.map((row) => (
                  <li key={row.id} className="py-1 text-sm">
                    <span className="font-medium">{row.title}</span>
                    {row.description && <span className="block text-xs text-slate-600">{row.description}</span>}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
