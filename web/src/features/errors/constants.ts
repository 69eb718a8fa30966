// The error page's text and how often the browser's errors are reported.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

export const ROUTER_ERROR_HEADING = 'Unexpected Application Error!';

/** Reports of the browser's errors: enough to see a pattern, not enough to flood the server. */
export const JSERROR_MAX_REPORTS = 5;
export const JSERROR_WINDOW_MS = 60_000;
