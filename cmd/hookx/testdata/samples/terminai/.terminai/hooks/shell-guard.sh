#!/bin/sh
# Gemini CLI BeforeTool guard: refuses rm -rf and force pushes.
input=$(cat)
case "$input" in
*'rm -rf'*|*'push --force'*)
  printf '%s\n' '{"decision":"deny","reason":"destructive command refused by shell-guard"}'
  exit 0 ;;
esac
exit 0
