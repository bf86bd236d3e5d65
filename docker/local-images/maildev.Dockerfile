# maildev from the npm registry (docker/local-images/make.sh). Reads MAILDEV_SMTP_PORT and
# MAILDEV_WEB_PORT like the official image; answers GET /healthz. A TLS-inspecting proxy's CA goes
# in as `--secret id=ca,src=<bundle>` (it is used for the install only, not kept in the image).
ARG BASE=mate-local/node:20
FROM ${BASE}
ARG MAILDEV_VERSION=2.2.1
RUN --mount=type=secret,id=ca \
    if [ -f /run/secrets/ca ]; then export npm_config_cafile=/run/secrets/ca; fi \
 && npm install -g --no-audit --no-fund "maildev@${MAILDEV_VERSION}" && npm cache clean --force
USER node
EXPOSE 1025 1080
ENTRYPOINT ["maildev"]
