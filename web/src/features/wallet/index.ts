import { importPart } from '../../shared/staleBuild';
import type { ChatPlugin } from '../../shared/chat/kinds';
import { GiveOfferBar } from './GiveOfferBar';

export { EarnedFromSharing } from './EarnedFromSharing';
export { profileHint } from './profileHint';
export { RESUMED_WITHDRAWAL_PARAMS, resumedWithdrawal } from './withdraw';
export { RewardReleasedNotices } from './RewardReleasedNotices';
export { useLiveWallets } from './useLiveWallets';
export type { LedgerEntry } from './walletApi';
export { WalletList } from './WalletList';

/** The Give offer bar under an item chat's header, for the post's owner. */
export const offersInChat: ChatPlugin = { sessionBars: [GiveOfferBar] };

// Loaders, not exports: the app imports this index up front (the chat plug-in), and a page
// exported here would join the main bundle instead of loading on demand.
export const loadRechargePage = () => importPart(async () => (await import('./RechargePage')).RechargePage);
export const loadAfterPaymentPage = () => importPart(async () => (await import('./AfterPaymentPage')).AfterPaymentPage);
