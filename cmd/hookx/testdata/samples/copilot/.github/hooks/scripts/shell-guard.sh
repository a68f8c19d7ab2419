#!/bin/sh
# Copilot CLI preToolUse guard: refuses rm -rf and force pushes.
input=$(cat)
case "$input" in
*'rm -rf'*|*'push --force'*)
  printf '%s\n' '{"permissionDecision":"deny","permissionDecisionReason":"destructive command refused"}' ;;
esac
exit 0
