#!/bin/sh
# Crush PreToolUse: a command that names the production database halts the
# whole turn (exit 49, the reason on stderr).
case "$CRUSH_TOOL_INPUT_COMMAND" in
*prod-db*)
  echo "production database named: turn halted" >&2
  exit 49 ;;
esac
exit 0
