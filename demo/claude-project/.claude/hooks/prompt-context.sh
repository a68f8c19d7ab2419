#!/bin/sh
# UserPromptSubmit: adds the project's conventions to every prompt.
cat >/dev/null
echo "Conventions: run go test ./... before saying a change is done; never edit generated files."
