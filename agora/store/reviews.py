"""Reviews after paid offers: one per offer and author (a unique index), reports kept on
the review, hidden by a moderator rather than removed."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.store.mongo import Indexes, new_id


class ReviewStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.reviews = db["reviews"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.reviews, [("move_id", 1), ("author_id", 1)], unique=True)
        # Not (subject_id, _id): nx-27017 refuses inserts into a collection indexed on `_id`
        # within a compound index ("JSON path error near '_id'"); a person has few reviews.
        await indexes.ensure(self.reviews, [("subject_id", 1)])
        await indexes.ensure(self.reviews, [("group_id", 1), ("reported_at", -1)])

    async def create(self, fields: dict[str, Any], now: int) -> dict[str, Any] | None:
        """Stores the author's review of the offer; None when they wrote one already."""
        review = {
            "_id": new_id(),
            **fields,
            "created_at": now,
            "updated_at": now,
            "hidden": False,
            "reports": {},
        }
        try:
            await self.reviews.insert_one(review)
        except DuplicateKeyError:
            return None
        return review

    async def get(self, review_id: str) -> dict[str, Any] | None:
        return await self.reviews.find_one({"_id": review_id})

    async def of_move(self, move_id: str) -> list[dict[str, Any]]:
        return await self.reviews.find({"move_id": move_id}).to_list()

    async def by_author_of(self, author_id: str, move_ids: list[str]) -> list[dict[str, Any]]:
        """The author's reviews of these offers."""
        query = {"author_id": author_id, "move_id": {"$in": move_ids}}
        return await self.reviews.find(query).to_list()

    async def rewrite(
        self, review_id: str, author_id: str, written_after: int, changes: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Changes the author's review if it was written after `written_after`; None if not."""
        return await self.reviews.find_one_and_update(
            {"_id": review_id, "author_id": author_id, "created_at": {"$gt": written_after}},
            {"$set": changes},
            return_document=ReturnDocument.AFTER,
        )

    async def report(self, review_id: str, user_id: str, reason: str, now: int) -> None:
        """Adds the user's report unless they reported it already. Reports are kept by
        reporter (ids are ObjectId text): nx-27017 stores a document `$push`ed into an
        array as a JSON string."""
        await self.reviews.update_one(
            {"_id": review_id, f"reports.{user_id}": {"$exists": False}},
            {"$set": {f"reports.{user_id}": {"reason": reason, "at": now}, "reported_at": now}},
        )

    async def set_hidden(
        self, review_id: str, hidden: bool, by_user_id: str, now: int
    ) -> dict[str, Any] | None:
        return await self.reviews.find_one_and_update(
            {"_id": review_id},
            {"$set": {"hidden": hidden, "hidden_by": by_user_id, "hidden_at": now}},
            return_document=ReturnDocument.AFTER,
        )

    async def of_subject(
        self, subject_id: str, before_id: str | None, limit: int
    ) -> list[dict[str, Any]]:
        """Reviews of the person that are not hidden, newest first."""
        query: dict[str, Any] = {"subject_id": subject_id, "hidden": False}
        if before_id is not None:
            query["_id"] = {"$lt": before_id}
        return await self.reviews.find(query).sort("_id", -1).limit(limit).to_list()

    async def ratings_of(self, subject_id: str) -> list[int]:
        found = self.reviews.find({"subject_id": subject_id, "hidden": False}, {"rating": 1})
        return [review["rating"] async for review in found]

    async def reported_in(
        self, group_id: str, before_at: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Reported reviews of the group's posts, the newest report first."""
        query: dict[str, Any] = {"group_id": group_id, "reported_at": {"$exists": True}}
        if before_at is not None:
            query["reported_at"] = {"$lt": before_at}
        return await self.reviews.find(query).sort("reported_at", -1).limit(limit).to_list()

    async def count_reported_not_hidden(self, group_id: str) -> int:
        """Reported reviews of the group's posts that no moderator hid yet."""
        query = {"group_id": group_id, "reported_at": {"$exists": True}, "hidden": False}
        return await self.reviews.count_documents(query)
