#!/bin/sh
# Issue 30: pageable <-> device copies staged through pinned buffers, under a few WEFT_STAGING
# plans (largest chunk MiB, memcpy threads), to see whether the host memcpy or the copy engine
# sets the pace on a GPU machine. About 5 s a plan. Usage: scripts/staging-sweep.sh [DEVICE] [WEFT]
dev=${1:-cuda:0}
weft=${2:-build/tools/weft}
for plan in default 16,8 16,16 8,12 32,12 4,12; do
  echo "# WEFT_STAGING=$plan"
  if [ "$plan" = default ]; then
    "$weft" bench transfer --device "$dev" --repeat 5 | grep pageable
  else
    WEFT_STAGING=$plan "$weft" bench transfer --device "$dev" --repeat 5 | grep pageable
  fi
done
