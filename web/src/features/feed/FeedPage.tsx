import { useParams } from 'react-router';
import { Feed } from './Feed';

export function FeedPage() {
  const { groupId = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      {/* Keyed so that another group starts with a fresh search and filter. */}
      <Feed key={groupId} groupId={groupId} />
    </div>
  );
}
