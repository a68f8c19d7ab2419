#!/bin/sh
# Crush PreToolUse guard: no edits to .env files; exit 2 with the reason on
# stderr blocks the call.
case "$CRUSH_TOOL_INPUT_FILE_PATH" in
*.env|*/.env)
  echo "refusing to edit $CRUSH_TOOL_INPUT_FILE_PATH" >&2
  exit 2 ;;
esac
exit 0
