# Redis 7 from Debian's redis-server package (docker/local-images/make.sh). Like the official
# image: data in /data, `redis-server` as the command, nothing kept unless the command asks.
ARG BASE=mate-local/debian:bookworm
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
