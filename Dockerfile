# One image with every ADAS binary (the five services, `adas`, the demo MCP
# server), the skill templates built in. Multi-stage: the toolchain stays in the
# builder; the runtime runs as an unprivileged user.
#   docker build -t adas:0.1.0 .    # the tag the Helm chart runs (its appVersion)
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked \
      -p adas-cli -p adas-intent -p adas-skill-registry -p adas-orchestrator \
      -p adas-gate -p adas-dal-agent -p adas-demo-mcp --bins \
 && mkdir -p /out \
 && cp target/release/adas target/release/adas-intent target/release/adas-skill-registry \
       target/release/adas-orchestrator target/release/adas-gate target/release/adas-dal-agent \
       target/release/adas-demo-mcp /out/

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/adas --create-home adas
COPY --from=build /out/ /opt/adas/
# The shipped templates are built into the binaries (`--templates-dir`
# replaces them with a mounted directory).
ENV PATH=/opt/adas:$PATH \
    ADAS_MEMORY_ROOT=/var/lib/adas/memory
USER 10001
WORKDIR /var/lib/adas
# Each container runs one binary (deploy/helm/adas, deploy/compose.yaml); alone,
# the image runs the whole suite on its embedded default.
CMD ["adas", "up"]
