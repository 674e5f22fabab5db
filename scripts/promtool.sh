#!/usr/bin/env bash
# Ensures `promtool` (checks deploy/prometheus and the dashboard queries) is on PATH. Debian ships it in the
# `prometheus` package, whose install would also start the Prometheus daemon (port 9090): only the tool is wanted.
set -euo pipefail
command -v promtool >/dev/null && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
# invoke-rc.d and deb-systemd-invoke ask policy-rc.d before starting a service; exit 101 means "do not start".
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && own_policy=1
fi
remove_policy() { if [ -n "$own_policy" ]; then $SUDO rm -f "$policy"; fi; }
trap remove_policy EXIT
$SUDO apt-get update -q >/dev/null
# --no-install-recommends: the recommended prometheus-node-exporter is another daemon (port 9100).
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends prometheus >/dev/null
# Belt and braces: the package enables its unit for the next boot; disable it, and stop it if it started anyway.
if [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now prometheus.service >/dev/null 2>&1 || true
elif [ -e /etc/init.d/prometheus ] && $SUDO /etc/init.d/prometheus status >/dev/null 2>&1; then
  $SUDO /etc/init.d/prometheus stop >/dev/null
fi
command -v promtool >/dev/null
