import { Linked } from '../../shared/chat/LinkedText';
import type { RenderedTemplate, WaTemplateButton } from './whatsappApi';

/** A template message as the customer sees it: header, body, footer and its buttons (links where they lead somewhere). */
export function TemplateView({ template }: { template: Pick<RenderedTemplate, 'header' | 'body' | 'footer' | 'buttons'> }) {
  return (
    <div data-testid="wa-template" className="space-y-1">
      {template.header && <p className="font-semibold break-words">{template.header}</p>}
      <p className="text-[15px] break-words whitespace-pre-line">
        <Linked text={template.body} />
      </p>
      {template.footer && <p className="text-xs text-slate-600">{template.footer}</p>}
      {template.buttons && template.buttons.length > 0 && (
        <ul aria-label="Template buttons" className="grid gap-1 pt-1">
          {template.buttons.map((button) => (
            <li key={`${button.type}:${button.text}`}>
              <TemplateButton button={button} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const buttonLook = 'block rounded-lg bg-white/70 px-3 py-1.5 text-center text-sm font-semibold text-brand-800 ring-1 ring-brand-200';

function TemplateButton({ button }: { button: WaTemplateButton }) {
  if (button.type === 'URL' && button.url) {
    return (
      <a href={button.url} target="_blank" rel="noopener noreferrer" className={`${buttonLook} underline-offset-2 hover:underline`}>
        ↗ {button.text}
      </a>
    );
  }
  if (button.type === 'PHONE_NUMBER' && button.phone_number) {
    return (
      <a href={`tel:${button.phone_number}`} className={buttonLook}>
        ☎ {button.text}
      </a>
    );
  }
  return <span className={buttonLook}>{button.text}</span>;
}
