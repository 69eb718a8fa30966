"""Login, current user, profile and logout."""

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from aiohttp import web

from agora.core.accounts import user_view
from agora.core.errors import InvalidInput
from agora.http.replies import ok
from agora.http.requests import Body, client_ip, optional_caller, read_body, require_caller
from agora.http.routes import Auth, Query, Reply, Route, SuccessReply
from agora.services.accounts import AccountService, ProfileChanges

GUEST_COOKIE = "agora_guest"
GUEST_COOKIE_MAX_AGE = 2 * 365 * 24 * 3600


class LoginBody(Body):
    email_id: str | None = None
    phone_number: str | None = None
    name: str | None = None
    otp: str | None = None


class ProfileBody(Body):
    name: str | None = None
    image: str | None = None
    email_id: str | None = None
    phone_number: str | None = None
    otp: str | None = None


class ProfileQuery(Query):
    action: Literal["update"] | None = None


class MeReply(Reply):
    user: dict[str, Any] | None
    guest_user: dict[str, Any]


class LoginReply(Reply):
    """Step 1 answers `require` and `data`; the last step `user` and `allspark_auth_key`."""

    require: list[str] | None = None
    data: dict[str, Any] | None = None
    user: dict[str, Any] | None = None
    allspark_auth_key: str | None = None


class ProfileReply(Reply):
    user: dict[str, Any]
    user_wallets: list[dict[str, Any]] | None = None
    require: list[str] | None = None
    # Rewards held now and paid as a poster, by currency; reviews' count and average.
    rewards: dict[str, Any] | None = None
    reviews_summary: dict[str, Any] | None = None


class PublicProfileReply(Reply):
    """What anyone may see of a person: `user {_id, name, image}`, `rewards {held, paid}`
    and `reviews_summary {count, average}`."""

    user: dict[str, Any]
    rewards: dict[str, Any]
    reviews_summary: dict[str, Any]


def routes(
    accounts: AccountService,
    secure_cookies: bool,
    notifications_unseen: Callable[[str], Awaitable[int]] | None = None,
) -> list[Route]:
    async def with_live_count(reply: dict) -> dict:
        """The red dot's count is computed by chat when asked; nothing keeps it on the user."""
        user = reply.get("user")
        if user and notifications_unseen is not None:
            user["data"]["notifications_unseen_count"] = await notifications_unseen(user["_id"])
        return reply

    async def me(request: web.Request) -> web.Response:
        caller = optional_caller(request)
        guest, new_cookie = accounts.guest(request.cookies.get(GUEST_COOKIE))
        user = None
        if caller:
            await accounts.welcome_back(caller)
            user = user_view(caller.user)
        response = ok(await with_live_count({"user": user, "guest_user": guest}))
        if new_cookie:
            response.set_cookie(
                GUEST_COOKIE,
                new_cookie,
                max_age=GUEST_COOKIE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=secure_cookies,
            )
        return response

    async def login(request: web.Request) -> web.Response:
        body = await read_body(request, LoginBody)
        return ok(
            await with_live_count(await accounts.login(ip=client_ip(request), **body.model_dump()))
        )

    async def profile(request: web.Request) -> web.Response:
        caller = require_caller(request)
        action = request.query.get("action")
        if request.method == "GET" or action is None:
            return ok(await with_live_count(await accounts.profile(caller)))
        if action != "update":
            raise InvalidInput({"action": f"Unknown action '{action}'"})
        body = await read_body(request, ProfileBody)
        changes = ProfileChanges(**body.model_dump())
        updated = await accounts.update_profile(caller, changes, client_ip(request))
        return ok(await with_live_count(updated))

    async def public_profile(request: web.Request) -> web.Response:
        user_id = request.match_info["user_id"]
        return ok(await accounts.public_profile(user_id, optional_caller(request)))

    async def logout(request: web.Request) -> web.Response:
        await accounts.logout(require_caller(request))
        return ok({"success": True})

    return [
        Route("GET", "/user/me", me, "The signed-in user and the guest identity", reply=MeReply),
        Route(
            "POST",
            "/api/user/login",
            login,
            "Login in steps: request a code, then send it",
            body=LoginBody,
            reply=LoginReply,
        ),
        Route(
            "GET",
            "/api/user/profile",
            profile,
            "The caller's profile and wallets",
            auth=Auth.REQUIRED,
            reply=ProfileReply,
        ),
        Route(
            "POST",
            "/api/user/profile",
            profile,
            "The profile, or with action=update a change of it",
            auth=Auth.REQUIRED,
            body=ProfileBody,
            query=ProfileQuery,
            reply=ProfileReply,
            errors=(409,),
        ),
        Route(
            "GET",
            r"/api/users/{user_id:[A-Za-z0-9_-]{1,64}}/profile",
            public_profile,
            "What anyone may see of a person: name, picture, rewards (of posts in groups the"
            " caller may read) and reviews",
            reply=PublicProfileReply,
        ),
        Route(
            "POST",
            "/api/user/logout",
            logout,
            "Revokes the bearer key",
            auth=Auth.REQUIRED,
            reply=SuccessReply,
        ),
    ]
