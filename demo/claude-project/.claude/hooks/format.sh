#!/bin/sh
# PostToolUse on Edit|Write: formats the file that was written.
file=$(cat | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)
case "$file" in
  *.go) gofmt -w "$file" ;;
  *.js|*.ts|*.json|*.md) command -v prettier >/dev/null && prettier --write "$file" >/dev/null ;;
esac
exit 0
