#!/bin/sh
# smpirun --cfg=help against the committed listing tests/data/cfg_help.txt: every key with its
# type, choices, default and description. A difference is a change of what users see (a key
# added or renamed, a default changed); when it is meant, regenerate the listing:
#   BUILD/tools/smpirun --cfg=help BUILD/tools/demo > tests/data/cfg_help.txt
# usage: cfg_help.sh SMPIRUN PROGRAM REFERENCE
smpirun=$1 prog=$2 ref=$3
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
if ! "$smpirun" --cfg=help "$prog" >"$out"; then
  echo "cfg_help: '$smpirun --cfg=help $prog' failed" >&2
  exit 1
fi
if ! diff -u "$ref" "$out"; then
  echo "cfg_help: --cfg=help differs from $ref (see the header of tests/cfg_help.sh)" >&2
  exit 1
fi
echo "cfg_help: $(grep -c '^  [^ ]' "$out") keys as in $ref"
