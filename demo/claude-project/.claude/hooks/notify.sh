#!/bin/sh
# Notification: tells the user the agent is waiting.
msg=$(cat | sed -n 's/.*"message"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
command -v notify-send >/dev/null && notify-send "Claude Code" "$msg" || printf '\a'
