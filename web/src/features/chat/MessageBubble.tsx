import { useState } from 'react';
import { MESSAGE_TYPES, SEND_FAILED_TEXT } from '../../shared/constants';
import { useLongPress } from '../../shared/hooks/useLongPress';
import { mediaKind } from '../../shared/media';
import { relativeTime } from '../../shared/relativeTime';
import { MoreIcon } from '../../shared/ui/icons';
import { PopupMenu } from '../../shared/ui/PopupMenu';
import { ProfileLink } from '../../shared/ui/ProfileLink';
import { Carousel } from '../../shared/ui/ImageViewer';
import type { ItemFile } from '../../shared/entities/item';
import { SharedPlace } from '../../shared/location/SharedPlace';
import { useChatKinds } from '../../shared/chat/kinds';
import { MessageContext } from '../../shared/chat/MessageContext';
import type { ChatMessage, ChatUser } from '../../shared/chat/types';
import { linksIn } from '../../shared/chat/LinkedText';
import { DeliveryTicks } from './DeliveryTicks';
import { LinkPreview } from './LinkPreview';
import { MentionedText } from './MentionedText';
import { Reactions } from './Reactions';
import { deliveryIcon, sentAt } from './messages';

interface MessageBubbleProps {
  message: ChatMessage;
  sender: ChatUser | undefined;
  own: boolean;
  /** Null when the viewer may not see this message's delivery details. */
  onInfo: (() => void) | null;
  onRetry: () => void;
  /** The text of the message it answers ('' when that one is not loaded); null for none. */
  quoted?: string | null;
  /** Answers this message, quoting it; absent for a viewer who may not write. */
  onReply?: () => void;
}

/** A message's files: images open the app's image viewer (all of the message's, from the one clicked). */
function Attachments({ files }: { files: readonly ItemFile[] }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const images = files.filter((file) => mediaKind(file) === 'image');
  return (
    <div className="mt-1 space-y-1">
      {files.map((file) => {
        const index = images.indexOf(file);
        if (index < 0) return <Attachment key={file.url} file={file} />;
        return (
          <button key={file.url} type="button" onClick={() => setViewing(index)} aria-label={`View image ${file.title || index + 1}`} className="block">
            <img src={file.thumbnail || file.url} alt={file.title} className="max-h-48 rounded-lg bg-slate-100 object-cover" />
          </button>
        );
      })}
      {viewing !== null && <Carousel images={images} start={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

function Attachment({ file }: { file: ItemFile }) {
  if (mediaKind(file) === 'video') return <video src={file.url} controls className="max-h-48 rounded-lg" />;
  return (
    <a href={file.url} target="_blank" rel="noopener noreferrer" className="block truncate rounded-lg bg-black/10 px-3 py-2 text-sm underline">
      📄 {file.title || file.url}
    </a>
  );
}

/** A chat message's quote of the message it answers, its text, shared place and files. */
function ChatContent({ message, quoted }: { message: ChatMessage; quoted: string | null }) {
  return (
    <>
      <MessageContext context={message.data.context} quoted={quoted} />
      {message.payload && (
        <p className="text-[15px] break-words whitespace-pre-line">
          <MentionedText message={message} />
        </p>
      )}
      {message.data.location && <SharedPlace place={message.data.location} />}
      {message.payload1.length > 0 && <Attachments files={message.payload1} />}
    </>
  );
}

export function MessageBubble({ message, sender, own, onInfo, onRetry, quoted = null, onReply }: MessageBubbleProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const hasMenu = onInfo !== null || onReply !== undefined;
  // A long press (a touch screen's way: it has no hover menu) opens the menu when it offers a
  // reply, else the message info at once (the spec's long press); a right click, the desktop's
  // long press, opens the info.
  const openActions = (touch: boolean) => {
    if (onInfo && !(touch && onReply)) onInfo();
    else setMenuOpen(true);
  };
  const press = useLongPress(() => openActions(true));
  const kind = useChatKinds().messageKind(message.type);

  if (message.type === MESSAGE_TYPES.notice) {
    return (
      <p data-message-type="notice" className="mx-auto my-2 max-w-[85%] rounded-full bg-slate-200/70 px-3 py-1 text-center text-xs text-slate-600">
        {message.payload}
      </p>
    );
  }

  const banner = message.type === MESSAGE_TYPES.banner;
  // A plug-in's kind may fix the side (in a business chat every agent's message is the business speaking).
  const outbound = kind?.side ? kind.side === 'outbound' : own;
  const link = kind ? undefined : linksIn(message.payload)[0];
  const icon = deliveryIcon(message, kind);
  const sent = sentAt(message, kind);
  const tone = banner
    ? 'animate-banner bg-gradient-to-r from-amber-400 via-rose-400 to-fuchsia-500 text-white'
    : outbound
      ? 'bg-brand-100 text-slate-900 ring-1 ring-brand-200'
      : 'bg-white text-slate-900 ring-1 ring-slate-200';

  return (
    <div className={`group flex items-center gap-1 ${banner ? 'justify-center' : outbound ? 'flex-row-reverse justify-start' : 'justify-start'}`}>
      <div
        {...(hasMenu ? press : {})}
        onContextMenu={
          hasMenu
            ? (event) => {
                event.preventDefault();
                // Chrome tells a touch screen's long press as a contextmenu of a touch.
                const pointer = (event.nativeEvent as Partial<PointerEvent>).pointerType;
                openActions(pointer === 'touch' || pointer === 'pen');
              }
            : undefined
        }
        data-testid="chat-message"
        data-own={own || undefined}
        data-message-type={message.type}
        data-created-at={message.created_at}
        className={`max-w-[80%] rounded-2xl px-3 py-2 shadow-xs transition-shadow select-text data-[gone-to]:ring-4 data-[gone-to]:ring-amber-300 ${tone} ${outbound ? 'rounded-br-md' : 'rounded-bl-md'}`}
      >
        {!own && sender && (
          <p className="mb-0.5 text-xs font-semibold text-brand-700">
            {/* A user's name leads to their profile (reviews, what they paid); a WhatsApp customer has none. */}
            {kind?.senderIsUser === false ? sender.name : <ProfileLink userId={message.src_id}>{sender.name}</ProfileLink>}
          </p>
        )}
        {kind ? <kind.Content message={message} quoted={quoted} /> : <ChatContent message={message} quoted={quoted} />}
        {link && <LinkPreview url={link} />}
        <p className={`mt-1 flex items-center justify-end gap-1 text-[11px] ${banner ? 'text-white' : 'text-slate-600'}`}>
          <time dateTime={new Date(sent).toISOString()}>{relativeTime(sent)}</time>
          {outbound && <DeliveryTicks icon={icon} />}
        </p>
        {message.data.reactions && <Reactions reactions={message.data.reactions} />}
        {message.local === 'failed' && (
          <button type="button" onClick={onRetry} className="mt-1 text-xs font-semibold underline">
            {SEND_FAILED_TEXT}
          </button>
        )}
      </div>
      {hasMenu && <MessageMenu onInfo={onInfo} onReply={onReply} open={menuOpen} onOpenChange={setMenuOpen} />}
    </div>
  );
}

interface MessageMenuProps {
  onInfo: (() => void) | null;
  onReply?: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A message's actions (Reply, Message info): on the desktop behind a menu button shown while
 * the pointer is over the message (or it has keyboard focus); touch screens, without hover,
 * open it with a long press.
 */
function MessageMenu({ onInfo, onReply, open, onOpenChange }: MessageMenuProps) {
  const actions = [...(onReply ? [['Reply', onReply] as const] : []), ...(onInfo ? [['Message info', onInfo] as const] : [])];
  return (
    <PopupMenu
      label="Message menu"
      open={open}
      onOpenChange={onOpenChange}
      trigger={<MoreIcon className="size-4" />}
      triggerClassName={(shown) =>
        `rounded-full p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800 focus-visible:opacity-100 group-hover:opacity-100 pointer-coarse:hidden ${shown ? 'opacity-100' : 'opacity-0'}`
      }
      className="shrink-0"
      menuClassName="absolute top-full right-0 z-10 mt-1 min-w-36 rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200"
      itemClassName="block w-full px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100"
      items={actions.map(([label, act]) => ({ key: label, content: label, onSelect: act }))}
    />
  );
}
