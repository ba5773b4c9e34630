# Message types checkpatch may report on this topic, each with its reason.
UNKNOWN_COMMIT_ID  the tree is Debian's source tarball, which has no git history: the Fixes: tag of the Exynos5433 CMU probe fix names an upstream commit (523d3de41f02, as the list's later Fixes: tags give it) that checkpatch cannot look up here
