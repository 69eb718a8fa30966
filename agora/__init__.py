"""Agora: city classifieds feed with group chat, share routes and rewards."""

import os

# Ray starts a local cluster of its own when a call is made with no cluster joined. An edge
# makes none then on purpose (while it joins a new head, a call left over must fail, not
# start a Ray beside the head): Ray reads this when it is first imported, so it is set here,
# before any module of ours imports Ray.
os.environ.setdefault("RAY_ENABLE_AUTO_CONNECT", "0")
