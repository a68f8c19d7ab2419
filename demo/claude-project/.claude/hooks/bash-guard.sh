#!/bin/sh
# PreToolUse guard on Bash: refuses rm -rf. Claude Code blocks the call on
# exit 2 and gives stderr to the model.
input=$(cat)
if printf '%s' "$input" | grep -Eq '"command"[[:space:]]*:[[:space:]]*"[^"]*rm[[:space:]]+-[a-zA-Z]*(rf|fr)'; then
  echo "Blocked: rm -rf is not allowed in this project; delete files one by one." >&2
  exit 2
fi
exit 0
