#!/usr/bin/env bash
# Installs what weft needs to build, test and benchmark on Debian/Ubuntu, only what is
# missing. Safe to run again. Uses sudo when not root.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

packages=(cmake ninja-build g++ make libgtest-dev python3 python3-dev python3-pip pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev clinfo
          libopenblas0-pthread libclblast1  # weft.linalg's BLAS/LAPACK and CLBlast, opened at run time
          libhwy-dev)  # Highway's vqsort: the host's sorts of keys (libweft_vqsort, opened at run time)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "weft: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
