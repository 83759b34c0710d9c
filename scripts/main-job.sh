#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make run: the main job on a built-in default.
set -eu
bin=${1:-build/schedlens}
"$bin" version
