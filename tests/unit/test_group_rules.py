"""Who may write in a group (its `write_permission`), as posts and the + button ask."""

import pytest

from agora.core.errors import InvalidInput
from agora.core.groups import can_write, check_write_permission


def _group(write_permission: int, is_public: bool = False) -> dict:
    return {"is_public": is_public, "write_permission": write_permission}


def _member(user_type: int) -> dict:
    return {"session_user_type": user_type}


@pytest.mark.parametrize(
    ("write_permission", "user_type", "writes"),
    [
        (20, 20, True),
        (15, 20, False),
        (15, 15, True),
        (10, 15, False),
        (10, 10, True),
        (20, 30, False),  # awaiting approval
        (20, 29, False),  # blocked
    ],
)
def test_members_write_within_the_groups_write_permission(write_permission, user_type, writes):
    for public in (False, True):
        assert can_write(_group(write_permission, public), _member(user_type)) is writes


def test_a_stranger_writes_only_where_posting_would_make_them_a_member_who_may():
    assert can_write(_group(20, is_public=True), None) is True
    assert can_write(_group(15, is_public=True), None) is False
    assert can_write(_group(20, is_public=False), None) is False


def test_who_may_write_is_admins_moderators_or_every_member():
    assert [check_write_permission(kind) for kind in (10, 15, 20)] == [10, 15, 20]
    for wrong in (0, 5, 29, 30, 40):
        with pytest.raises(InvalidInput):
            check_write_permission(wrong)
