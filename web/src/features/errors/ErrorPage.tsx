import { useEffect } from 'react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { PATHS, ROUTER_ERROR_HEADING } from '../../shared/constants';
import { buttonClass } from '../../shared/ui/Button';
import { reportError } from './jsErrorReporter';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The router's error boundary: unknown routes and errors thrown while rendering a page. */
export function ErrorPage() {
  const error = useRouteError();

  useEffect(() => {
    if (!isRouteErrorResponse(error)) reportError(error, 'Route error boundary');
  }, [error]);

  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      <p className="text-5xl" aria-hidden="true">
        🧭
      </p>
      <h1 className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">{ROUTER_ERROR_HEADING}</h1>
      <p className="mt-3 rounded-xl bg-slate-100 px-4 py-2 font-mono text-sm break-all text-slate-600">{describe(error)}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={PATHS.home} className={buttonClass('primary')}>
          Go to the start page
        </Link>
        <button type="button" onClick={() => window.location.reload()} className={buttonClass('secondary')}>
          Reload
        </button>
      </div>
    </div>
  );
}
