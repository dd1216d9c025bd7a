#!/bin/sh
# The C sources stay as clang-format 14 formats them with .clang-format (CONTRIBUTING.md):
# lists every file that is not, with the command that fixes it. Another major version of
# clang-format formats a few constructs differently, so the check runs with version 14 only
# (Debian bookworm's) and says so otherwise (exit 77: skipped).
# usage: format_check.sh SOURCE_ROOT
cd "$1" || exit 1
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format_check: clang-format not installed (apt-get install clang-format): not checked"
  exit 77
fi
case $(clang-format --version) in
  *" version 14."*) ;;
  *) echo "format_check: $(clang-format --version) is not version 14: not checked"; exit 77 ;;
esac
files=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^tests/data/\|^tests/fuzz/corpus\|^tests/fuzz/crashes')
[ -n "$files" ] || { echo "format_check: not a git checkout: not checked"; exit 77; }
bad=$(for f in $files; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "format_check: not formatted (fix: clang-format -i FILE...):"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "format_check: $(echo "$files" | wc -l) files formatted"
