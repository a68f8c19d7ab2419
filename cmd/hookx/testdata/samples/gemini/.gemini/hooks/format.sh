#!/bin/sh
# Formats the file just written (a no-op without a formatter).
cat >/dev/null
exit 0
