import { useState, type ReactNode } from 'react';
import { MESSAGE_DELETED_TEXT, MESSAGE_EDITED_TEXT, MESSAGE_TYPES, SEND_FAILED_TEXT } from './constants';
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
import { Quote } from '../../shared/chat/Quote';
import type { ChatMessage, ChatUser } from '../../shared/chat/types';
import { linksIn } from '../../shared/chat/LinkedText';
import { DeliveryTicks } from './DeliveryTicks';
import { LinkPreview } from './LinkPreview';
import { MentionedText } from './MentionedText';
import { Reactions } from './Reactions';
import { ReactionBar, type MessageReactions } from './ReactionBar';
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
  /** The viewer's reactions to it, and who reacted; absent where the message takes none. */
  reactions?: MessageReactions;
  /** What else the viewer may do with it (edit, delete, pin), after Reply in its menu. */
  actions?: readonly MessageAction[];
}

export interface MessageAction {
  label: string;
  onSelect: () => void;
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
      <Quote quoted={quoted} />
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

export function MessageBubble({ message, sender, own, onInfo, onRetry, quoted = null, onReply, reactions, actions = [] }: MessageBubbleProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const reacting = reactions?.onReact && !message.deleted_at ? reactions : undefined;
  const hasReactions = Object.keys(message.data.reactions ?? {}).length > 0;
  const hasMenu = onInfo !== null || onReply !== undefined || actions.length > 0 || reacting !== undefined || (reactions !== undefined && hasReactions);
  // A long press (a touch screen's way: it has no hover menu) opens the menu when it offers
  // more than the info, else the message info at once (the spec's long press); a right click,
  // the desktop's long press, opens the info.
  const openActions = (touch: boolean) => {
    if (onInfo && !(touch && (onReply || reacting || actions.length > 0))) onInfo();
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
    <div className={`group relative flex items-center gap-1 ${banner ? 'justify-center' : outbound ? 'flex-row-reverse justify-start' : 'justify-start'}`}>
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
        className={`max-w-[80%] rounded-2xl px-3 py-2 shadow-xs select-text ${tone} ${outbound ? 'rounded-br-md' : 'rounded-bl-md'}`}
      >
        {!own && sender && (
          <p className="mb-0.5 text-xs font-semibold text-brand-700">
            {/* A user's name leads to their profile (reviews, what they paid); a WhatsApp customer has none. */}
            {kind?.senderIsUser === false ? sender.name : <ProfileLink userId={message.src_id}>{sender.name}</ProfileLink>}
          </p>
        )}
        {message.deleted_at ? (
          <p data-testid="message-deleted" className="text-[15px] italic opacity-75">
            🚫 {MESSAGE_DELETED_TEXT}
          </p>
        ) : kind ? (
          <kind.Content message={message} quoted={quoted} />
        ) : (
          <ChatContent message={message} quoted={quoted} />
        )}
        {link && !message.deleted_at && <LinkPreview url={link} />}
        <p className={`mt-1 flex items-center justify-end gap-1 text-[11px] ${banner ? 'text-white' : 'text-slate-600'}`}>
          {message.edited_at && !message.deleted_at && <span data-testid="message-edited">{MESSAGE_EDITED_TEXT}</span>}
          <time dateTime={new Date(sent).toISOString()}>{relativeTime(sent)}</time>
          {outbound && <DeliveryTicks icon={icon} />}
        </p>
        {message.data.reactions && (
          <Reactions
            reactions={message.data.reactions}
            meId={reactions?.meId}
            onToggle={reacting?.onReact}
            onShowWho={reactions?.onShowWho}
          />
        )}
        {message.local === 'failed' && (
          <button type="button" onClick={onRetry} className="mt-1 text-xs font-semibold underline">
            {SEND_FAILED_TEXT}
          </button>
        )}
      </div>
      {hasMenu && (
        <MessageMenu
          onInfo={onInfo}
          onReply={onReply}
          onShowWho={reactions && hasReactions ? () => reactions.onShowWho(null) : undefined}
          actions={actions}
          outbound={outbound}
          bar={reacting && <ReactionBar mine={reacting.meId ? message.data.reactions?.[reacting.meId] : undefined} reactions={reacting} onDone={() => setMenuOpen(false)} />}
          open={menuOpen}
          onOpenChange={setMenuOpen}
        />
      )}
    </div>
  );
}

interface MessageMenuProps {
  onInfo: (() => void) | null;
  onReply?: () => void;
  /** Who reacted to it, when someone did. */
  onShowWho?: () => void;
  actions: readonly MessageAction[];
  /** The reaction bar, above the actions. */
  bar?: ReactNode;
  /** The message is on the right: the menu opens from the right edge of its row, else from the left. */
  outbound: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A message's reactions and actions (Reply, Edit, Delete, Pin, Who reacted, Message info): on
 * the desktop behind a menu button shown while the pointer is over the message (or it has
 * keyboard focus); touch screens, without hover, open it with a long press.
 */
function MessageMenu({ onInfo, onReply, onShowWho, actions: more, bar, outbound, open, onOpenChange }: MessageMenuProps) {
  const actions = [
    ...(onReply ? [['Reply', onReply] as const] : []),
    ...more.map(({ label, onSelect }) => [label, onSelect] as const),
    ...(onShowWho ? [['Who reacted', onShowWho] as const] : []),
    ...(onInfo ? [['Message info', onInfo] as const] : []),
  ];
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
      placedByHolder
      menuClassName={`absolute top-full z-10 mt-1 min-w-36 rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200 ${outbound ? 'right-0' : 'left-0'}`}
      itemClassName="block w-full px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100"
      leading={bar}
      items={actions.map(([label, act]) => ({ key: label, content: label, onSelect: act }))}
    />
  );
}
