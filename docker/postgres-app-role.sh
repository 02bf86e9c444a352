#!/bin/sh
# compose.yaml mounts this into postgres's /docker-entrypoint-initdb.d: on the
# first start of an empty volume it makes the app's role, which owns the app's
# database and nothing else (issue 22.11, decision 0035; README "Production").
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -v pw="$CARDKEY_DB_PASSWORD" <<'SQL'
CREATE ROLE cardkey LOGIN PASSWORD :'pw';
CREATE DATABASE cardkey OWNER cardkey;
SQL
