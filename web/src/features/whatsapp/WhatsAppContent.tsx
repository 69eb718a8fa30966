import { Linked } from '../../shared/chat/LinkedText';
import { Quote } from '../../shared/chat/Quote';
import { SharedPlace } from '../../shared/location/SharedPlace';
import { messageText } from './businessChat';
import { ContactsCard } from './ContactsCard';
import { InteractiveView } from './InteractiveView';
import { MediaView } from './MediaView';
import { ReferralCard } from './ReferralCard';
import { TemplateView } from './TemplateView';
import { WA_FORWARDED_MANY_TEXT, WA_FORWARDED_TEXT } from './constants';
import type { WaMedia, WaMessage, WaReplyContext } from './whatsappApi';

/** The files of a message: an inbound one's fetched media, an agent's uploads. */
function mediaOf(message: WaMessage): WaMedia[] {
  return message.data.media_urls ?? message.payload1.map((file) => ({ url: file.url, mime_type: file.mime_type, title: file.title }));
}

/** "Forwarded" (or "Forwarded many times") over a customer's message that Meta marked so. */
function Forwarded({ context }: { context: WaReplyContext | undefined }) {
  const text = context?.frequently_forwarded ? WA_FORWARDED_MANY_TEXT : context?.forwarded ? WA_FORWARDED_TEXT : null;
  return text && <p className="mb-0.5 text-xs text-slate-600 italic">↪ {text}</p>;
}

/**
 * The inside of a WhatsApp bubble (1018-1021), whatever its kind: each part the message's
 * `data` carries, in the order WhatsApp shows them. `quoted` is the text of the message it
 * answers ('' when not loaded), null when it answers none.
 */
export function WhatsAppContent({ message, quoted }: { message: WaMessage; quoted: string | null }) {
  const data = message.data;
  const template = data.template && 'body' in data.template ? data.template : null;
  // The choice or the template says it all; their text repeats in `payload`/`txt`.
  const text = template || data.interactive ? '' : messageText(message);
  const media = mediaOf(message);
  return (
    <div data-wa-kind={data.wa?.kind ?? data.wa_kind ?? (template ? 'template' : 'text')}>
      <Forwarded context={data.context} />
      <Quote quoted={quoted} />
      {data.referral && <ReferralCard referral={data.referral} />}
      {/* The copy shown while a template is on its way has only its name: the server renders it. */}
      {template ? <TemplateView template={template} /> : data.template && <p className="text-[15px] text-slate-600">📝 {data.template.name}</p>}
      {media.length > 0 && <MediaView files={media} />}
      {text && (
        <p className="text-[15px] break-words whitespace-pre-line">
          <Linked text={text} />
        </p>
      )}
      {data.location && <SharedPlace place={data.location} />}
      {data.contacts?.map((contact, index) => <ContactsCard key={index} contact={contact} />)}
      {data.interactive && <InteractiveView interactive={data.interactive} />}
    </div>
  );
}
