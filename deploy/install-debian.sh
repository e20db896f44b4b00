#!/bin/sh
# Installs, as root on Debian 12, everything arena needs to build, run and
# test: compilers, the libraries, cmocka, PostgreSQL's server (arena
# starts its own private cluster; the system one is not used), python3
# for the Python starter kit and chromium, the headless browser the
# viewer's test loads its page in (tests/integration/test_replay_viewer.sh).
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential cmake pkg-config ca-certificates \
	libzmq3-dev libmsgpack-dev libyaml-dev libpq-dev libcmocka-dev \
	libseccomp-dev libarchive-dev libssl-dev postgresql python3 procps \
	chromium
