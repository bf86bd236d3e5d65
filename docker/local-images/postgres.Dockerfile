# PostgreSQL 15 from Debian's packages (docker/local-images/make.sh), started the way the official
# image is: POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, PGDATA, PGPORT and the scripts in
# /docker-entrypoint-initdb.d on a fresh data folder (postgres-entrypoint.sh).
ARG BASE=mate-local/debian:bookworm
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql /docker-entrypoint-initdb.d \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql \
 && chmod 0700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY --chown=postgres:postgres postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
