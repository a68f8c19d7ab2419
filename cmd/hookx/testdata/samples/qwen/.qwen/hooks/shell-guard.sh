#!/bin/sh
# Refuses rm -rf and force pushes (exit 2, the reason on stderr).
input=$(cat)
case "$input" in
*'rm -rf'*|*'push --force'*) echo "destructive command refused" >&2; exit 2 ;;
esac
exit 0
