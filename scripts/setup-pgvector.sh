#!/usr/bin/env bash
# Installs the pgvector extension into the local PostgreSQL server when it is missing.
# Debian bookworm ships no pgvector package, so it is built from Debian's own source package.
set -euo pipefail

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"

available() {
  psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -d postgres -tAc \
    "select 1 from pg_available_extensions where name = 'vector'" 2>/dev/null | grep -q 1
}

if available; then
  echo "pgvector: already available"
  exit 0
fi

if [ "$(id -u)" != "0" ]; then
  echo "pgvector: not installed and not running as root; install pgvector for your PostgreSQL server" >&2
  exit 1
fi

pg_major=$(pg_config --version 2>/dev/null | sed -E 's/^PostgreSQL ([0-9]+).*/\1/' || true)
if [ -z "$pg_major" ]; then
  pg_major=$(ls /etc/postgresql | sort -n | tail -n 1)
fi

echo "pgvector: building for PostgreSQL $pg_major from Debian's source package"
src_list=/etc/apt/sources.list.d/quarry-pgvector-src.list
if [ ! -f "$src_list" ]; then
  echo "deb-src http://deb.debian.org/debian trixie main" > "$src_list"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "postgresql-server-dev-$pg_major" build-essential dpkg-dev >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get source --download-only pgvector >/dev/null
dsc=$(ls pgvector_*.dsc | head -n 1)
dpkg-source -x "$dsc" src >/dev/null
cd src
make -s PG_CONFIG="/usr/lib/postgresql/$pg_major/bin/pg_config" OPTFLAGS="" >/dev/null
make -s PG_CONFIG="/usr/lib/postgresql/$pg_major/bin/pg_config" install >/dev/null

if available; then
  echo "pgvector: installed"
else
  echo "pgvector: build finished but the extension is still unavailable" >&2
  exit 1
fi
