#!/bin/sh
mkdir -p "$QWEN_PROJECT_DIR/.qwen/audit"
cat >> "$QWEN_PROJECT_DIR/.qwen/audit/$1.jsonl"
exit 0
