import { Link } from 'react-router';
import { LOGIN_TO_VIEW_TEXT, routePath } from '../constants';
import { mediaKind } from '../media';
import { relativeTime } from '../relativeTime';
import { openLogin } from '../session/login';
import type { Item } from '../entities/item';
import { closedMark } from '../entities/reward';
import { Offer, RewardBadges, ShareBadges, TagList } from './Offer';

const cardClass = 'block overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200';

/**
 * A post in a list; visitors see a blurred stand-in for posts that need a user. Its title is a
 * heading one level below the list's own (2 in the feed, under its h1; 3 under a section's h2).
 */
export function ItemCard({ item, headingLevel = 3 }: { item: Item; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (item.title === undefined && item.need_user_to_view) {
    return (
      <button type="button" onClick={() => openLogin()} className={`${cardClass} relative w-full p-4 text-left`}>
        <div aria-hidden="true" className="space-y-2 blur-sm select-none">
          <div className="h-4 w-2/3 rounded bg-slate-300" />
          <div className="h-3 w-full rounded bg-slate-200" />
          <div className="h-3 w-5/6 rounded bg-slate-200" />
        </div>
        <span className="absolute inset-0 flex items-center justify-center text-sm font-semibold text-slate-700">{LOGIN_TO_VIEW_TEXT}</span>
      </button>
    );
  }
  const image = item.files?.find((file) => mediaKind(file) === 'image');
  const mark = closedMark(item);
  return (
    <Link to={routePath(item.route_id)} className={`${cardClass} flex gap-4 p-4 transition-shadow hover:shadow-md`}>
      <div className="min-w-0 flex-1 space-y-1.5">
        <Heading className="line-clamp-2 font-semibold break-words text-slate-900">
          {mark && (
            <span data-testid="card-closed" className="mr-2 inline-block rounded-full bg-slate-700 px-2 py-0.5 align-middle text-xs font-medium text-white">
              {mark}
            </span>
          )}
          {item.title}
        </Heading>
        {item.description && <p className="line-clamp-2 text-sm text-slate-600">{item.description}</p>}
        <TagList tags={item.tags ?? []} />
        <RewardBadges item={item} />
        <ShareBadges item={item} />
        <div className="flex items-center justify-between gap-3 text-sm">
          <Offer item={item} className="truncate" />
          <time dateTime={new Date(item.created_at).toISOString()} className="ml-auto shrink-0 text-xs text-slate-500">
            {relativeTime(item.created_at)}
          </time>
        </div>
      </div>
      {image && <img src={image.thumbnail || image.url} alt="" loading="lazy" className="size-20 shrink-0 rounded-xl bg-slate-100 object-cover" />}
    </Link>
  );
}
