#!/bin/sh
# PreToolUse on Bash, only for `git push` (the handler's if condition):
# refuses to push with a dirty tree.
cat >/dev/null
if [ -n "$(git -C "$CLAUDE_PROJECT_DIR" status --porcelain)" ]; then
  echo "Commit or stash your changes before pushing." >&2
  exit 2
fi
