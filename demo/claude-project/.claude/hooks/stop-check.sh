#!/bin/sh
# Stop: keeps the agent going while the tests have not been run since the
# last edit (format.sh leaves .claude/.tests-dirty behind).
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0 ;; esac
if [ -f "$CLAUDE_PROJECT_DIR/.claude/.tests-dirty" ]; then
  echo '{"decision":"block","reason":"Run go test ./... before finishing."}'
fi
exit 0
