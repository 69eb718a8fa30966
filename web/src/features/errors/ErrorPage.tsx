import { useEffect } from 'react';
import { Link, isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { PATHS } from '../../shared/constants';
import { ROUTER_ERROR_HEADING } from './constants';
import { isStaleBuildError, mayReloadForNewBuild, reloadForNewBuild } from '../../shared/staleBuild';
import { Loading } from '../../shared/ui/Loading';
import { buttonClass } from '../../shared/ui/Button';
import { reportError } from './jsErrorReporter';

function technicalDetail(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

const reload = () => window.location.reload();

/**
 * The router's error boundary: unknown routes, a part of the app from an older build, and
 * errors thrown while rendering a page. The heading is the spec's; under it, what happened
 * and what to do next.
 */
export function ErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const stale = isStaleBuildError(error);
  // A part of the app from the build before a release: the page reloads onto the new one, once.
  const reloading = stale && mayReloadForNewBuild();

  useEffect(() => {
    if (reloading) reloadForNewBuild();
    else if (!isRouteErrorResponse(error) && !stale) reportError(error, 'Route error boundary');
  }, [error, stale, reloading]);

  if (reloading) return <Loading title="Loading the new version of Agora" />;

  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      <p className="text-5xl" aria-hidden="true">
        {stale ? '✨' : '🧭'}
      </p>
      <h1 className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">{ROUTER_ERROR_HEADING}</h1>
      {notFound ? (
        <>
          <p className="mt-3 text-base font-semibold text-slate-800">There is no page at this address.</p>
          <p className="mt-1 text-sm text-slate-600">
            Nothing lives at <span className="font-mono break-all">{pathname}</span>: the link may be old or mistyped.
          </p>
        </>
      ) : stale ? (
        <>
          <p className="mt-3 text-base font-semibold text-slate-800">A new version of Agora is out.</p>
          <p className="mt-1 text-sm text-slate-600">This page belongs to the version before it. Reload to get the new one.</p>
        </>
      ) : (
        <>
          <p className="mt-3 text-base font-semibold text-slate-800">This page ran into a problem.</p>
          <p className="mt-1 text-sm text-slate-600">It was reported to us. Reloading often helps; your posts and chats are safe.</p>
          <p className="mt-3 rounded-xl bg-slate-100 px-4 py-2 font-mono text-xs break-all text-slate-600">{technicalDetail(error)}</p>
        </>
      )}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {notFound ? (
          <Link to={PATHS.home} className={buttonClass('primary')}>
            Go to the start page
          </Link>
        ) : (
          <>
            <button type="button" onClick={reload} className={buttonClass('primary')}>
              Reload
            </button>
            <Link to={PATHS.home} reloadDocument={stale} className={buttonClass('secondary')}>
              Go to the start page
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
