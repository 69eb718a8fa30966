"""Which shard of a pool hosts a session (or a user): jump consistent hash over the pool's
current count.

Jump consistent hash (Lamping and Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm",
2014; the `jump-consistent-hash` package) sends a key to one of `count` numbered buckets so
that growing the count from n to n+1 moves only about 1/(n+1) of the keys, and only into the
new bucket: the shards a deployment already runs lose sessions, never gain them. The count
lives in the store (`store/shard_maps.py`) with a version that every growth raises, so edges
and shards can tell an old map from the current one.
"""

import hashlib
from dataclasses import dataclass

import jump

# A fresh deployment's map (its count from AGORA_SESSION_SHARDS / AGORA_USER_SHARDS): no
# shard can have acted under an older one.
FIRST_VERSION = 1


def shard_of(key: str, count: int) -> int:
    """The bucket of `key` among `count`. The key's 64-bit hash is stable across processes
    and Python versions (the built-in `hash` of a str is not)."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return jump.hash(int.from_bytes(digest, "big"), count)


@dataclass(frozen=True)
class ShardMap:
    count: int
    version: int

    def owner(self, key: str) -> int:
        return shard_of(key, self.count)

    def newer_than(self, other: "ShardMap") -> bool:
        return self.version > other.version
