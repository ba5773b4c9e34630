# Message types checkpatch may report on this topic, each with its reason.
UNKNOWN_COMMIT_ID  000590a5e20d is mainline's revert of the Rockchip module conversion (v5.16); the tree here is imported from Debian's tarball, without history
FILE_PATH_CHANGES  scripts/coccinelle/ is the COCCINELLE/Semantic Patches (SmPL) entry of MAINTAINERS already: a new script there needs no new entry
