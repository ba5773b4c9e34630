# Message types checkpatch may report on this topic, each with its reason.
UNKNOWN_COMMIT_ID  the tree is Debian's source tarball, which has no git history: the Fixes: tag of the gs101 fix names an upstream commit (f9c744747973, as the list's Fixes: tags on later fixes of it give it) that checkpatch cannot look up here
