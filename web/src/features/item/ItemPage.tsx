import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DELETE_ITEM_CONFIRM, LINK_COPIED_MS, POST_REMOVED_TEXT } from './constants';
import { INVALID_GROUP_TEXT, LINK_COPIED_TEXT, LOGIN_TO_VIEW_TEXT, editItemPath, groupFeedPath, userProfilePath } from '../../shared/constants';
import { isApiError } from '../../shared/errors';
import { mediaKind } from '../../shared/media';
import { relativeTime } from '../../shared/relativeTime';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Button, buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { openLogin } from '../../shared/session/login';
import { useCurrentUser } from '../../shared/session/currentUser';
import { useSignedInAction } from '../../shared/session/useResumeAfterLogin';
import { feedPath } from '../../shared/rememberedGroup';
import type { Item } from '../../shared/entities/item';
import { useChatWindow } from '../../shared/chat/chatContext';
import { shareEarningsText, type ShareEarnings } from '../../shared/entities/finderFee';
import { Offer, RewardBadges, ShareBadges, TagList } from '../../shared/ui/Offer';
import { isClosed, lifetimeText, postLifetime } from '../../shared/entities/reward';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import { formatMoney } from '../../shared/currency';
import { ImageViewer } from '../../shared/ui/ImageViewer';
import { arrivedRoute, rememberArrivedRoute } from './arrivedRoute';
import { closeItem, deleteItem, fetchItemChats, fetchRoute, shareRoute, type RouteReply } from './itemApi';

/** /r/:routeId: a shared post with its chain of owners. */
export function ItemPage() {
  const { routeId = '' } = useParams();
  const { status, user } = useCurrentUser();
  // Who is viewing is known first: loading at once and again once the user arrived read the post twice.
  const known = status === 'ready' || status === 'error';
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      {known ? <RoutePost key={`${routeId}/${user?._id ?? ''}`} routeId={routeId} /> : <Loading />}
    </div>
  );
}

/** Keyed by the viewer: a login reloads it, as a signed-in viewer may see content a visitor may not. */
function RoutePost({ routeId }: { routeId: string }) {
  const route = useAsyncData(routeId, (signal) => fetchRoute(routeId, signal));
  return (
    <>
      {route.status === 'loading' && <Loading />}
      {route.status === 'error' && <PostNotShown error={route.error} onRetry={route.reload} />}
      {route.status === 'success' && <Post reply={route.data} />}
    </>
  );
}

/**
 * Why a post's link shows no post, and a way on: it was removed (or never was: the server does
 * not tell them apart), its group is closed to the viewer, or it could not be loaded.
 */
function PostNotShown({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const status = isApiError(error) ? error.status : 0;
  const onward = (
    <Link to={feedPath()} className={buttonClass('primary')}>
      See the latest posts
    </Link>
  );
  if (status === 404) {
    return (
      <EmptyState icon="🗑️" title={POST_REMOVED_TEXT} description="Its poster deleted it, or the link is incomplete. Other posts are waiting in the feed.">
        {onward}
      </EmptyState>
    );
  }
  if (status === 403) {
    return (
      <EmptyState icon="🔒" title={INVALID_GROUP_TEXT} description="The post is in a group you are not a member of yet.">
        {onward}
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="⚠️" title="Could not load this post" description="Check your connection and try again.">
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </EmptyState>
  );
}

function Post({ reply: { item: loaded, group, route_users, share_earnings } }: { reply: RouteReply }) {
  const { user } = useCurrentUser();
  const viewerId = user?._id ?? null;
  // The post as the server last told it: its reply to Close, or the `item` event it sends the
  // poster when the post's reward or state changed (held, paid, released, closed). The route
  // the viewer arrived through stays the loaded one's.
  const [changed, setChanged] = useState<Item | null>(null);
  const item = changed ?? loaded;
  const onChanged = (next: Item) => setChanged({ ...next, route: loaded.route });
  useSocketEvent<{ item?: Item }>('item', (event) => {
    if (event?.item?._id === loaded._id) onChanged(event.item);
  }, viewerId === loaded.user_id);
  const poster = route_users[0];
  useEffect(() => rememberArrivedRoute(item._id, item.route, viewerId), [item._id, item.route, viewerId]);
  const images = (item.files ?? []).filter((file) => mediaKind(file) === 'image');
  return (
    <article className="space-y-5 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      {route_users.length > 0 && (
        <nav aria-label="Owner chain" className="text-xs text-slate-500">
          {route_users.map((owner) => owner.name).join(' → ')}
        </nav>
      )}
      {item.title === undefined && item.need_user_to_view ? (
        <button type="button" onClick={() => openLogin()} className={buttonClass('secondary', 'lg')}>
          {LOGIN_TO_VIEW_TEXT}
        </button>
      ) : (
        <>
          <div>
            <h1 className="text-2xl font-bold tracking-tight break-words">{item.title}</h1>
            <p className="mt-1 text-sm text-slate-500">
              {poster && (
                <>
                  by{' '}
                  <Link to={userProfilePath(item.user_id)} className="font-medium text-brand-700 hover:underline">
                    {poster.name}
                  </Link>{' '}
                  ·{' '}
                </>
              )}
              {relativeTime(item.created_at)}
              <Lifetime item={item} />
            </p>
          </div>
          {item.description && <p className="whitespace-pre-line text-slate-700">{item.description}</p>}
          <ImageViewer images={images} />
          <Offer item={item} className="text-lg" />
          <RewardBadges item={item} />
          <HeldExplained item={item} />
          <ShareBadges item={item} />
          <TagList tags={item.tags ?? []} />
          <ShareEarningsNote earnings={share_earnings} />
        </>
      )}
      <Link to={groupFeedPath(group._id)} className="block text-sm font-medium text-brand-700 hover:underline">
        Posted in {group.title}
      </Link>
      <ActionBar item={item} onChanged={onChanged} />
    </article>
  );
}

function ActionBar({ item, onChanged }: { item: Item; onChanged: (item: Item) => void }) {
  const { user } = useCurrentUser();
  const ui = useUi();
  const navigate = useNavigate();

  const remove = useAsyncAction(async () => {
    if (!(await ui.confirm(DELETE_ITEM_CONFIRM))) return;
    try {
      await deleteItem(item._id);
      navigate(groupFeedPath(item.group_id));
    } catch (error) {
      ui.showError(error);
    }
  });

  const share = <ShareButton routeId={arrivedRoute(item._id, item.route?._id ?? item.route_id)} />;
  if (user && user._id === item.user_id) {
    return (
      <div className="flex flex-wrap gap-3 border-t border-slate-100 pt-5">
        {/* A closed post keeps its reward as it was: the server refuses its edits. */}
        {!isClosed(item) && (
          <>
            <Link to={editItemPath(item.group_id, item._id)} className={buttonClass('secondary')}>
              Edit
            </Link>
            <CloseButton item={item} onClosed={onChanged} />
          </>
        )}
        <Button variant="danger" busy={remove.busy} onClick={() => void remove.run()}>
          Delete
        </Button>
        <div className="ml-auto flex gap-3">
          {/* The poster passes their post on too: their link is the post's own (the server answers it). */}
          {share}
          <ChatButton item={item}>View Chats</ChatButton>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap gap-3 border-t border-slate-100 pt-5">
      <ChatButton item={item}>Chat</ChatButton>
      {share}
    </div>
  );
}

/** Opens the item's chats: every one for the owner (as tabs), the viewer's own for anyone else. */
function ChatButton({ item, className = '', children }: { item: Item; className?: string; children: ReactNode }) {
  const { user } = useCurrentUser();
  const ui = useUi();
  const { openChat } = useChatWindow();
  const open = useAsyncAction(async () => {
    try {
      // The route this person arrived through: its sharers earn the finder's fees.
      const read = () => fetchItemChats(item._id, arrivedRoute(item._id, item.route?._id ?? item.route_id));
      const reply = await read();
      // The owner's window reads again once it listens: a chat may begin in between.
      const reload = async () => (await read()).chats.map((chat) => chat.session);
      openChat({ title: reply.item.title ?? '', image: reply.item.files?.[0]?.thumbnail, sessions: reply.chats.map((chat) => chat.session), itemId: item._id, reload: user?._id === item.user_id ? reload : undefined });
    } catch (error) {
      ui.showError(error);
    }
  });
  const press = useSignedInAction(`chat:${item._id}`, () => void open.run());
  return (
    <Button className={className} busy={open.busy} onClick={press}>
      {children}
    </Button>
  );
}

function ShareButton({ routeId }: { routeId: string }) {
  const ui = useUi();
  const [copied, setCopied] = useState(false);
  // A link the clipboard refused, shown to copy by hand or with one more tap.
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), LINK_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setShown(null);
      setCopied(true);
    } catch {
      // Browsers let a page write the clipboard only just after a tap: a Share resumed once
      // the login finished, or one the browser refuses, shows the link instead.
      setShown(url);
    }
  };
  const share = useAsyncAction(async () => {
    try {
      await copy((await shareRoute(routeId)).url);
    } catch (error) {
      ui.showError(error);
    }
  });
  const press = useSignedInAction(`share:${routeId}`, () => void share.run());
  return (
    <>
      <Button variant="secondary" busy={share.busy} onClick={press}>
        {copied ? LINK_COPIED_TEXT : 'Share'}
      </Button>
      {shown && (
        <div className="flex w-full items-center gap-2">
          <input
            readOnly
            value={shown}
            aria-label="Your share link"
            onFocus={(event) => event.target.select()}
            className={`${inputClass} min-w-0 flex-1`}
          />
          <Button variant="secondary" onClick={() => void copy(shown)}>
            Copy link
          </Button>
        </div>
      )}
    </>
  );
}

/** What sharing this post earns the reader (the server's figure; none for visitors and the poster). */
function ShareEarningsNote({ earnings }: { earnings: ShareEarnings | null | undefined }) {
  if (!earnings) return null;
  return (
    <p data-testid="share-earnings" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {shareEarningsText(earnings)}
    </p>
  );
}

/** " · Open until Dec 28, 2026", or when it closed or expired. */
function Lifetime({ item }: { item: Item }) {
  const lifetime = postLifetime(item);
  if (!lifetime) return null;
  return (
    <>
      {' · '}
      <span data-testid="post-lifetime" className={lifetime.state === 'open' ? '' : 'font-medium text-slate-700'}>
        {lifetimeText(lifetime)}
      </span>
    </>
  );
}

/** Why a held reward can be counted on, in one line. */
function HeldExplained({ item }: { item: Item }) {
  if (item.reward_status !== 'held' || !item.reward_held) return null;
  return (
    <p className="text-sm text-slate-600">
      Set aside by Agora from the poster&apos;s wallet: it pays the helper and the finder&apos;s fees, and whatever is left goes back
      when the post closes.
    </p>
  );
}

/** Closes the post: no longer open for helpers, and what is still held goes back to the poster. */
function CloseButton({ item, onClosed }: { item: Item; onClosed: (item: Item) => void }) {
  const ui = useUi();
  const held = item.reward_status === 'held' && item.reward_held && item.offer_currency ? formatMoney(item.reward_held, item.offer_currency) : null;
  const close = useAsyncAction(async () => {
    const question = held ? `Close this post? ${held} still held goes back to your wallet.` : 'Close this post?';
    if (!(await ui.confirm(question))) return;
    try {
      const reply = await closeItem(item._id);
      // What came back is told by the wallet's notice (the server's reward_released), wherever the poster is.
      ui.toast('Post closed.');
      onClosed(reply.item);
    } catch (error) {
      ui.showError(error);
    }
  });
  return (
    <Button variant="secondary" busy={close.busy} onClick={() => void close.run()}>
      Close post
    </Button>
  );
}
