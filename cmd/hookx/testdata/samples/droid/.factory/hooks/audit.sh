#!/bin/sh
mkdir -p "$FACTORY_PROJECT_DIR/.factory/audit"
cat >> "$FACTORY_PROJECT_DIR/.factory/audit/$1.jsonl"
exit 0
