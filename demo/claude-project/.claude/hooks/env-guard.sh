#!/bin/sh
# PreToolUse guard on Edit|Write|MultiEdit: denies writes to .env files with
# Claude Code's permissionDecision JSON.
input=$(cat)
if printf '%s' "$input" | grep -Eq '"file_path"[[:space:]]*:[[:space:]]*"[^"]*\.env(\.[a-z]+)?"'; then
  cat <<'JSON'
{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Writing .env files is not allowed; edit .env.example instead."}}
JSON
fi
exit 0
