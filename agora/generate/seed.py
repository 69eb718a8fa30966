"""A demo city for `make run`, so a newcomer sees a living feed. Runs once per database."""

import logging
from decimal import Decimal

from agora.core.accounts import EMAIL_FIELD, Identifier
from agora.core.money import CURRENCY_POINTS, LEDGER_REF_DEMO, to_cents
from agora.core.rewards import hold_target
from agora.services.accounts import Caller
from agora.services.items import ItemInput
from agora.services.registry import Services
from agora.store.users import UserStore

log = logging.getLogger("agora.generate.seed")

DEMO_GROUP = "amsterdam-nl"
DEMO_PEOPLE = {
    "sanne": "Sanne de Vries",
    "joost": "Joost Bakker",
    "amira": "Amira El Idrissi",
    "liam": "Liam O'Connor",
}
DEMO_POSTS = [
    (
        "sanne",
        ItemInput(
            title="Looking for a bike mechanic this week",
            description="My cargo bike's gears slip on every bridge. Anyone in De Pijp who can "
            "come by in the evening? Happy to pay for parts on top.",
            tags=("Services",),
            offer_amount=25,
            offer_currency="EUR",
        ),
    ),
    (
        "joost",
        ItemInput(
            title="Selling a solid oak dining table (6 seats)",
            description="180 x 90 cm, a few scratches, very sturdy. Pick-up in Oost. "
            "Whoever finds me a buyer gets a finder's fee.",
            tags=("For sale",),
            offer_amount=40,
            offer_currency=CURRENCY_POINTS,
        ),
    ),
    (
        "amira",
        ItemInput(
            title="Dutch conversation partner wanted",
            description="I speak B1 Dutch and want to practise over coffee once a week. I can "
            "help with Arabic or French in return.",
            tags=("Help",),
            offer_description="Coffee is on me, and French or Arabic lessons in return",
        ),
    ),
    (
        "liam",
        ItemInput(
            title="Part-time barista, Jordaan",
            description="Small specialty coffee bar looking for weekend help. Experience with "
            "espresso machines is a plus.",
            tags=("Jobs",),
            offer_amount=50,
            offer_currency="USD",
            offer_description="Referral bonus once the person stays a month",
        ),
    ),
    (
        "sanne",
        ItemInput(
            title="Lost: grey cat near Sarphatipark",
            description="Answers to 'Muis', has a white chest and a blue collar. Please call "
            "if you see her!",
            tags=("Lost & found",),
            offer_amount=100,
            offer_currency=CURRENCY_POINTS,
        ),
    ),
    (
        "joost",
        ItemInput(
            title="Members only: spare room for a month",
            description="Furnished room in Noord from the 1st, 750 per month including bills. "
            "Only shown to members, message me for the address.",
            tags=("Housing",),
            need_user_to_view=True,
        ),
    ),
]


async def seed_demo_city(services: Services, users: UserStore) -> None:
    group = (await services.groups.view(DEMO_GROUP, None))["group"]
    if group["data"]["num_posts"] > 0:
        return
    people = {}
    for handle, name in DEMO_PEOPLE.items():
        ident = Identifier(EMAIL_FIELD, f"{handle}@demo.agora.local")
        people[handle] = await users.find_by_identifier(ident) or await users.create(ident, name)
    for number, (handle, post) in enumerate(DEMO_POSTS):
        user_id = people[handle]["_id"]
        if post.offer_amount is not None and post.offer_currency is not None:
            # A reward is held from its poster's wallet: the demo people are given what
            # their posts hold, as a ledger entry saying so.
            cents = to_cents(Decimal(post.offer_amount))
            await services.wallets.credit_external(
                key=f"demo:{DEMO_GROUP}:{number}",
                user_id=user_id,
                currency=post.offer_currency,
                amount_cents=hold_target(cents, post.finder_fee_percent, post.offer_currency),
                ref_type=LEDGER_REF_DEMO,
                ref_id=f"{DEMO_GROUP}:{number}",
                title="Demo money for a sample post's reward",
            )
        await services.items.create(Caller(user=people[handle], key_hash=""), DEMO_GROUP, post)
    log.info("seeded the demo city %s with %d posts", DEMO_GROUP, len(DEMO_POSTS))
