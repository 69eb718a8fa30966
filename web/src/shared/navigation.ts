/**
 * Leaves the app for a page outside it (the payment provider's checkout, onboarding or
 * billing portal) in this tab; the provider sends the browser back to a route of ours.
 */
export function leaveAppFor(url: string): void {
  window.location.assign(url);
}
