import { importPart } from '../../shared/staleBuild';
import type { ChatPlugin } from '../../shared/chat/kinds';
import { ReviewBar } from './ReviewBar';

export { ReportedReviewsLink } from './ReportedReviewsLink';
export { ReviewsSection, ReviewsSummaryLine } from './ReviewsSection';
export type { ReviewsSummary } from './reviewsApi';

/** The review bar under an item chat's header once an offer was paid there, for both sides. */
export const reviewsInChat: ChatPlugin = { sessionBars: [ReviewBar] };

// A loader, not an export: moderators open the page rarely, and the app imports this index up front (the chat plug-in).
export const loadReportedReviewsPage = () => importPart(async () => (await import('./ReportedReviewsPage')).ReportedReviewsPage);
