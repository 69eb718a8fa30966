import { PROFILE_HINTS } from '../../shared/constants';

/** The banner /profile shows for the query params a payout onboarding returns with, if any. */
export function profileHint(params: URLSearchParams): string | null {
  return PROFILE_HINTS.find(([param]) => params.has(param))?.[1] ?? null;
}
