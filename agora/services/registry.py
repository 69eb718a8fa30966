"""The set of use cases the edge serves, built by the composition root."""

from dataclasses import dataclass

from agora.services.accounts import AccountService
from agora.services.chat import ChatParts
from agora.services.client_errors import ClientErrorService
from agora.services.feed import FeedService
from agora.services.finder_fees import EarnedFromSharing
from agora.services.geo import GeoService
from agora.services.groups import GroupService
from agora.services.items import ItemService
from agora.services.link_previews import LinkPreviewService
from agora.services.offers import OfferService
from agora.services.payments import PaymentService
from agora.services.push import PushService
from agora.services.reviews import ReviewService
from agora.services.rewards import RewardHolds
from agora.services.uploads import UploadService
from agora.services.wallet import WalletService
from agora.services.whatsapp import WhatsApp
from agora.services.whatsapp.replies import WhatsAppReplies


@dataclass(frozen=True, kw_only=True)
class Services:
    accounts: AccountService
    client_errors: ClientErrorService
    groups: GroupService
    geo: GeoService
    feed: FeedService
    items: ItemService
    uploads: UploadService
    chat: ChatParts
    link_previews: LinkPreviewService
    wallets: WalletService
    offers: OfferService
    payments: PaymentService
    push: PushService
    finder_fees: EarnedFromSharing
    rewards: RewardHolds
    reviews: ReviewService
    whatsapp: WhatsApp
    whatsapp_replies: WhatsAppReplies
