import { LOADING_TEXT } from '../../shared/constants';
import { describeError } from '../../shared/errors';
import type { useCursorPages } from '../../shared/hooks/useCursorPages';
import { Button } from '../../shared/ui/Button';
import { Spinner } from '../../shared/ui/Spinner';

/** Under a list read page by page: loading, the error with a retry, or a button for the next page. */
export function ListFooter<T>({ pages, moreLabel }: { pages: ReturnType<typeof useCursorPages<T>>; moreLabel: string }) {
  if (pages.loading) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-500">
        <Spinner className="size-4" /> {LOADING_TEXT}
      </p>
    );
  }
  if (pages.error !== null) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-700">
        {describeError(pages.error).join(' ')}
        <Button variant="secondary" size="sm" onClick={pages.retry}>
          Try again
        </Button>
      </div>
    );
  }
  if (!pages.hasMore || pages.items.length === 0) return null;
  return (
    <Button variant="secondary" onClick={pages.loadMore}>
      {moreLabel}
    </Button>
  );
}

/** The list is read to its end and holds nothing. */
export function isEmptyList<T>(pages: ReturnType<typeof useCursorPages<T>>): boolean {
  return pages.items.length === 0 && !pages.loading && pages.error === null && !pages.hasMore;
}
