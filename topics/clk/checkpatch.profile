# Message types checkpatch may report on this topic, each with its reason.
CAMELCASE  BUSx_NR_CLK is clk-exynos5433.c's existing constant for the BUS CMUs' clock count; the patch that spells out the BUS CMU tables moves its use out of a macro, it does not name it
UNKNOWN_COMMIT_ID  the tree is Debian's source tarball, which has no git history: the Fixes: tag of the Exynos5433 CMU probe fix names an upstream commit (523d3de41f02, as the list's later Fixes: tags give it) that checkpatch cannot look up here
