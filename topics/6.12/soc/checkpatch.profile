# Message types checkpatch may report on this topic, each with its reason.
UNKNOWN_COMMIT_ID  the tree is Debian's source tarball, which has no git history: the Fixes: tag of the exynos-pmu node reference fix names an upstream commit that checkpatch cannot look up here
