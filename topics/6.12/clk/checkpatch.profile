# Message types checkpatch may report on this topic, each with its reason.
UNKNOWN_COMMIT_ID  the tree is Debian's source tarball, which has no git history: the Exynos5433 CMU probe fix names 523d3de41f02 in its Fixes: tag, and the PLL lock wait patch names 7349a69cf312, upstream commits (as the list's messages give them) that checkpatch cannot look up here
