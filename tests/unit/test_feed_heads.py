"""How a warm feed head takes in new posts, and how a head becomes a page."""

import json

from agora.core.items import FEED_PAGE_SIZE, decode_cursor, feed_key
from agora.services.feed import HEAD_SIZE, RenderedPages, matches_tags, merged_head, page_of


def _post(at: int, *tags: str) -> dict:
    return {"_id": f"p{at}", "feed_key": feed_key(at, f"p{at}"), "tags": list(tags)}


def _ids(posts: list[dict]) -> list[str]:
    return [post["_id"] for post in posts]


def test_tag_filters_need_every_chosen_tag_and_no_tags_match_all():
    post = _post(1, "Jobs", "Help")
    assert matches_tags(post, [])
    assert matches_tags(post, ["Help"])
    assert matches_tags(post, ["Help", "Jobs"])
    assert not matches_tags(post, ["Help", "Housing"])
    assert not matches_tags(post, ["help"])


def test_a_full_head_takes_newer_posts_on_top_and_keeps_its_size():
    head = [_post(at) for at in range(100, 100 - HEAD_SIZE, -1)]
    merged = merged_head(head, [_post(102), _post(101)], [])
    assert _ids(merged[:3]) == ["p102", "p101", "p100"]
    assert len(merged) == HEAD_SIZE
    assert merged[-1]["_id"] == f"p{100 - HEAD_SIZE + 3}"


def test_posts_already_in_the_head_are_not_repeated():
    head = [_post(3), _post(2), _post(1)]
    assert _ids(merged_head(head, [_post(4), _post(3)], [])) == ["p4", "p3", "p2", "p1"]


def test_a_late_stamped_post_lands_in_order_and_older_ones_stay_out_of_a_full_head():
    head = [_post(at) for at in range(200, 200 - HEAD_SIZE, -1)]
    late = _post(195)  # stamped before posts already in the head (another edge's clock)
    too_old = _post(10)
    merged = merged_head(head, [late, too_old], [])
    assert _ids(merged).index("p195") == _ids(merged).index("p196") + 1
    assert "p10" not in _ids(merged)


def test_a_tag_head_takes_only_matching_posts():
    head = [_post(5, "Jobs"), _post(2, "Jobs")]
    newer = [_post(9, "Help"), _post(8, "Jobs", "Help"), _post(7, "Jobs")]
    assert _ids(merged_head(head, newer, ["Jobs"])) == ["p8", "p7", "p5", "p2"]


def test_a_short_head_is_the_whole_feed_so_it_grows_into_a_full_one():
    head = [_post(at) for at in range(FEED_PAGE_SIZE, 0, -1)]
    assert page_of(head)["has_more"] is False
    merged = merged_head(head, [_post(500)], [])
    page = page_of(merged)
    assert page["has_more"] is True
    assert len(page["items"]) == FEED_PAGE_SIZE
    assert decode_cursor(page["next_cursor"]) == page["items"][-1]["feed_key"]


def test_a_page_from_fewer_posts_has_no_cursor():
    page = page_of([_post(2), _post(1)])
    assert (page["has_more"], page["next_cursor"]) == (False, None)
    assert _ids(page["items"]) == ["p2", "p1"]


def _text(posts: list[dict]) -> str:
    return json.dumps(posts)


def _shown(at: int, **fields) -> dict:
    return {
        **_post(at),
        "group_id": "g",
        "user_id": "u",
        "route_id": f"r{at}",
        "created_at": at,
        "title": f"Post {at}",
        **fields,
    }


def test_a_page_is_rendered_once_per_text_and_viewer_kind():
    pages = RenderedPages()
    text = _text([_shown(2, need_user_to_view=True), _shown(1)])
    member_page = pages.page(text, logged_in=True)
    assert pages.page(text, logged_in=True) is member_page
    visitors_page = pages.page(text, logged_in=False)
    assert [item.get("title") for item in member_page["items"]] == ["Post 2", "Post 1"]
    # A post that needs a login shows its content to members only.
    assert [item.get("title") for item in visitors_page["items"]] == [None, "Post 1"]


def test_a_changed_text_is_rendered_anew():
    pages = RenderedPages()
    before = pages.page(_text([_shown(1)]), logged_in=True)
    after = pages.page(_text([_shown(2), _shown(1)]), logged_in=True)
    assert [item["_id"] for item in before["items"]] == ["p1"]
    assert [item["_id"] for item in after["items"]] == ["p2", "p1"]


def test_the_pages_read_last_are_kept():
    pages = RenderedPages(max_pages=2)
    first, second, third = (_text([_shown(at)]) for at in (1, 2, 3))
    kept = pages.page(first, logged_in=True)
    dropped = pages.page(second, logged_in=True)
    assert pages.page(first, logged_in=True) is kept  # read again: now the newest
    pages.page(third, logged_in=True)
    assert pages.page(first, logged_in=True) is kept
    assert pages.page(second, logged_in=True) is not dropped
