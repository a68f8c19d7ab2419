#!/bin/sh
# Refuses patches that touch .env files.
input=$(cat)
case "$input" in
*'.env'*) printf '%s\n' '{"decision":"block","reason":"refusing to patch a .env file"}' ;;
esac
exit 0
