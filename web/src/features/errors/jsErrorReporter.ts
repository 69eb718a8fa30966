import { api, type ApiClient } from '../../shared/api';
import { JSERROR_MAX_REPORTS, JSERROR_WINDOW_MS } from './constants';
import { isApiError } from '../../shared/errors';
import { createRateLimiter } from '../../shared/rateLimit';

interface JsErrorReport {
  stacktrace_string: string;
  description: string;
  error_details: Record<string, unknown>;
}

function buildReport(error: unknown, description: string, details: Record<string, unknown> = {}): JsErrorReport {
  const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return {
    stacktrace_string: stack,
    description,
    error_details: {
      ...details,
      name: error instanceof Error ? error.name : typeof error,
      message: error instanceof Error ? error.message : String(error),
      url: window.location.href,
      user_agent: navigator.userAgent,
    },
  };
}

let report: (error: unknown, description: string, details?: Record<string, unknown>) => void = () => undefined;

/** Sends an error the app caught itself (an error boundary) to the server. */
export function reportError(error: unknown, description: string): void {
  report(error, description);
}

/**
 * POSTs uncaught errors and unhandled rejections to /jserror, a few per minute at most
 * so that an error in a render loop cannot flood the server.
 */
export function installErrorReporter(client: ApiClient = api, now: () => number = Date.now): () => void {
  const allow = createRateLimiter(JSERROR_MAX_REPORTS, JSERROR_WINDOW_MS, now);
  report = (error, description, details) => {
    if (!allow()) return;
    // A failed report is dropped: reporting it would only feed the same loop.
    client.post('/jserror', buildReport(error, description, details)).catch(() => undefined);
  };

  const onError = (event: ErrorEvent) => {
    report(event.error ?? event.message, event.message || 'Uncaught error', {
      source: event.filename,
      line: event.lineno,
      column: event.colno,
    });
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    // API failures are the server's own answers; it does not need them echoed back.
    if (isApiError(event.reason)) return;
    report(event.reason, 'Unhandled promise rejection');
  };

  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    report = () => undefined;
  };
}
