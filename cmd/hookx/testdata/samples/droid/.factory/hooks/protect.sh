#!/bin/sh
input=$(cat)
case "$input" in
*'.env"'*) printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"refusing to write a .env file"}}' ;;
esac
exit 0
