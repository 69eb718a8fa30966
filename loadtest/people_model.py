"""The user model of docs/load-model.md: what one person does per minute, as numbers.

Pure (no I/O, no locust): the locustfile (loadtest/people.py), the seeder
(loadtest/people_seed.py) and the `ceiling` bench scenario read their rates and sizes here,
and the defaults are what docs/load-model.md's table says. Rates are overridden with
`name=rate,...` (per person-minute), e.g. PEOPLE_RATES="chat_send=2,feed_page=4".
"""

from dataclasses import dataclass, field, replace

HTTP = "http"
SOCKET = "socket"


@dataclass(frozen=True)
class Action:
    name: str  # the name in locust's statistics
    per_minute: float  # on average, per person
    channel: str  # HTTP (a locust task) or SOCKET (an event the Node crowd emits)
    calls: str  # the exact route or event, as the web app calls it


# A busy evening in one city: the order is the table's in docs/load-model.md.
ACTIONS: tuple[Action, ...] = (
    Action("feed: page", 2.0, HTTP, "POST /api/feed {group_id, cursor?}"),
    Action("feed: search", 0.2, HTTP, "POST /api/feed {group_id, search_text}"),
    Action("chats: list", 0.5, HTTP, "POST /user/chats {cursor: null}"),
    Action("chat: open", 1.0, HTTP, "POST /session/messages {session_id} (reads the chat)"),
    Action("chat: send", 0.5, HTTP, "POST /session/send {dest_session_id, payload, local_id}"),
    Action("item: open", 0.3, HTTP, "GET /api/r/{route_id}"),
    Action("item: share", 0.05, HTTP, "GET /api/r/{route_id}?action=share"),
    Action("item: post", 0.02, HTTP, "POST /api/item?action=create {group_id, title, tags}"),
    Action("upload: picture", 0.02, HTTP, "POST /get_upload_url, then PUT the bytes"),
    Action("profile: open", 0.05, HTTP, "GET /api/user/profile"),
    Action(
        "wallet: ledger",
        0.03,
        HTTP,
        "GET /api/wallet/ledger {wallet_user_id, wallet_for, wallet_currency}",
    ),
    # The group chat tools (issue 44): reactions are the commonest (about one per two
    # messages in busy groups), one send in ten mentions someone, a few messages are
    # corrected, and a chat's history is searched less often than the feed.
    Action("chat: react", 0.3, HTTP, "POST /session/message/react {session_id, created_at, emoji}"),
    Action("chat: mention", 0.05, HTTP, "POST /session/send {..., data {mentions [user_id]}}"),
    Action("chat: edit", 0.02, HTTP, "POST /session/message/edit {session_id, created_at, text}"),
    Action("chat: search", 0.03, HTTP, "POST /session/search {session_id, q}"),
    Action("typing", 1.0, SOCKET, "typing {session_id}"),
    Action("viewing", 1.0, SOCKET, "viewing {session_id | null}"),
    Action("tab: reconnect", 0.05, SOCKET, "disconnect, connect, join, unseen {}"),
)
# Emitted by the crowd in answer to what arrives, so they have no rate of their own.
RECEIPTS = (
    Action("delivered", 0.0, SOCKET, "delivered {session_id, created_at}, once per 500 ms"),
    Action("read", 0.0, SOCKET, "read {session_id, created_at} in the chat the tab shows"),
)
# A person's item chats: the share of sends that go to the city group rather than one of them.
CITY_SEND_SHARE = 0.1


class RateError(ValueError):
    pass


def parse_rates(text: str) -> dict[str, float]:
    """`name=rate,...` (rate per person-minute, >= 0) into a mapping; names are the
    ACTIONS' names or their short form ("chat_send" for "chat: send")."""
    known = {short_name(a.name): a.name for a in ACTIONS} | {a.name: a.name for a in ACTIONS}
    rates: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise RateError(f"{part!r}: expected name=rate with a name of {sorted(known)}")
        try:
            rate = float(value)
        except ValueError:
            raise RateError(f"{part!r}: the rate is not a number") from None
        if not rate >= 0 or rate == float("inf"):
            raise RateError(f"{part!r}: a rate is a finite number >= 0")
        rates[known[name]] = rate
    return rates


def short_name(name: str) -> str:
    """ "chat: send" -> "chat_send": the name without spaces, for a shell variable."""
    return name.replace(": ", "_").replace(" ", "_")


@dataclass(frozen=True)
class Model:
    city_members: int = 500  # people per city group (one group per 200-2,000 people)
    item_chats: int = 3  # item chats per person, each with one other person
    away_share: float = 0.3  # people without a socket (the tab closed), push on
    rates: dict[str, float] = field(default_factory=lambda: {a.name: a.per_minute for a in ACTIONS})

    def with_rates(self, text: str) -> "Model":
        return replace(self, rates={**self.rates, **parse_rates(text)})

    def http_rates(self) -> dict[str, float]:
        return {a.name: self.rates[a.name] for a in ACTIONS if a.channel == HTTP}

    def socket_rates(self) -> dict[str, float]:
        return {a.name: self.rates[a.name] for a in ACTIONS if a.channel == SOCKET}

    def per_person_minute(self) -> float:
        return sum(self.rates.values())


def model_from_env(env: dict[str, str]) -> Model:
    """PEOPLE_CITY_MEMBERS, PEOPLE_ITEM_CHATS, PEOPLE_AWAY_SHARE, PEOPLE_RATES."""
    model = Model(
        city_members=int(env.get("PEOPLE_CITY_MEMBERS", Model.city_members)),
        item_chats=int(env.get("PEOPLE_ITEM_CHATS", Model.item_chats)),
        away_share=float(env.get("PEOPLE_AWAY_SHARE", Model.away_share)),
    )
    return model.with_rates(env.get("PEOPLE_RATES", ""))
