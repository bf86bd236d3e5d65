#!/bin/sh
# Creates one database per service (idempotent). Runs twice by design:
#  - as a PostgreSQL init script (/docker-entrypoint-initdb.d) on a fresh data volume, and
#  - as the one-shot `postgres-databases` compose service on every `up`, so a database added for
#    a new service later is created on an existing volume too.
# Add a service's database here: mate_<app without -service> (auth-service -> mate_auth).
set -e  # no -u: the postgres image may source (not exec) init scripts

DATABASES="${MATE_DATABASES:-mate_auth mate_profile mate_matching mate_chat mate_call mate_safety mate_admin mate_notification}"
user="${POSTGRES_USER:-mate}"
admin_db="${POSTGRES_DB:-$user}"

for db in $DATABASES; do
  psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$user" --dbname "$admin_db" <<SQL
SELECT format('CREATE DATABASE %I OWNER %I', '$db', '$user')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '$db')\gexec
SQL
done
echo "databases present: $DATABASES"
