#!/usr/bin/env bash
# Runs the widget tests' Xcb.* case on a private X server. Exit 77 (ctest: skipped) with the
# reason when the X tools are missing.
set -u
for tool in xvfb-run xauth Xvfb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (apt-get install xvfb xauth)"
    exit 77
  fi
done
exec xvfb-run -a -s "-screen 0 1280x1024x24" env QT_QPA_PLATFORM=xcb "$1" --gtest_filter='Xcb.*'
