#!/bin/sh
# Crush PreToolUse guard: refuses rm -rf and force pushes, in Crush's own
# envelope (decision deny; "block" would be no decision to Crush).
case "$CRUSH_TOOL_INPUT_COMMAND" in
*'rm -rf'*|*'push --force'*)
  printf '%s\n' '{"decision":"deny","reason":"destructive command refused by shell-guard"}'
  exit 0 ;;
esac
exit 0
