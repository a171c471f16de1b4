//! Configuration shared by every binary: flags with `ADAS_*` env fallbacks.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

pub use crate::telemetry::LogFormat;

/// Default memory root (tenant data on disk).
pub const DEFAULT_MEMORY_ROOT: &str = "./memory";

/// Default URL of the demo MCP server (`adas up` starts it there).
pub const DEFAULT_DEMO_MCP_URL: &str = "http://127.0.0.1:50060/mcp";

/// Default ports, one per service, and the all-in-one `adas up` port.
pub mod ports {
    /// `adas up`: all five services on one port.
    pub const ALL_IN_ONE: u16 = 50050;
    /// IntentService.
    pub const INTENT: u16 = 50051;
    /// SkillRegistryService.
    pub const SKILL_REGISTRY: u16 = 50052;
    /// OrchestratorService.
    pub const ORCHESTRATOR: u16 = 50053;
    /// GateService.
    pub const GATE: u16 = 50054;
    /// DalAgentService.
    pub const DAL_AGENT: u16 = 50055;
}

/// Where a worker's step is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StepEngine {
    /// In the worker's own process, over the shared crates the services serve:
    /// no network hop per step.
    Local,
    /// Through IntentService, DalAgentService and GateService at the peer
    /// addresses (an enforcement point in another process; costs the hops).
    Remote,
}

/// What a service demands of its Redis before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Durability {
    /// Refuse a Redis that can lose an acknowledged write (no AOF, or an
    /// fsync less often than every write) or evict keys: paused jobs,
    /// approvals and idempotency keys must outlive a Redis restart.
    Strict,
    /// Warn and start anyway (development, or a Redis made durable in a way
    /// CONFIG cannot show).
    Relaxed,
}

/// Flags every server binary accepts.
#[derive(Debug, Clone, Args)]
pub struct ServerArgs {
    /// Address to listen on (HOST:PORT); defaults to the service's own port on 127.0.0.1.
    #[arg(long, env = "ADAS_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Redis URL for shared state; absent means in-memory state (single process only).
    /// (Its value is never printed by `--help`: it may hold a password.)
    #[arg(long, env = "ADAS_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,
    /// Tenant data root on disk: `<root>/<slag>/{skill.yaml,jobs,logs}`.
    #[arg(long, env = "ADAS_MEMORY_ROOT", default_value = DEFAULT_MEMORY_ROOT)]
    pub memory_root: PathBuf,
    /// Directory of skill templates (`<slag>.yaml`) used to bootstrap new
    /// slags, instead of the templates built into the binary.
    #[arg(long, env = "ADAS_TEMPLATES_DIR")]
    pub templates_dir: Option<PathBuf>,
    /// How long the core tool list stays fresh in the cache, in milliseconds.
    #[arg(long, env = "ADAS_CORE_TOOLS_TTL_MS", default_value_t = 300_000)]
    pub core_tools_ttl_ms: u64,
    /// How long an MCP server's tool list stays fresh in the cache, in milliseconds.
    #[arg(long, env = "ADAS_MCP_TOOLS_TTL_MS", default_value_t = 60_000)]
    pub mcp_tools_ttl_ms: u64,
    /// URL of the demo MCP server; templates use it as `${ADAS_DEMO_MCP_URL}`.
    #[arg(long, env = "ADAS_DEMO_MCP_URL", default_value = DEFAULT_DEMO_MCP_URL)]
    pub demo_mcp_url: String,
    /// MCP servers skills may use beyond the demo server: hosts, `host:port`,
    /// CIDRs, or `public` (any globally routable address). Loopback, private,
    /// link-local and metadata addresses are refused unless listed here.
    #[arg(long, env = "ADAS_MCP_ALLOW", value_delimiter = ',')]
    pub mcp_allow: Vec<String>,
    /// Local MCP servers skills may name as `stdio:NAME`, as `NAME=COMMAND`
    /// (repeat the flag; `;`-separated in the env). Skills never supply commands.
    #[arg(long, env = "ADAS_MCP_STDIO", value_delimiter = ';')]
    pub mcp_stdio: Vec<String>,
    /// The auth file (principals and key digests; `adas auth key create` writes
    /// it). Absent: dev mode — no authentication, loopback listeners only.
    #[arg(long, env = "ADAS_AUTH_FILE")]
    pub auth_file: Option<PathBuf>,
    /// The API key this process presents to its peers (a principal with the
    /// `service` role); `adas up` makes its own.
    #[arg(long, env = "ADAS_PEER_KEY", hide_env_values = true)]
    pub peer_key: Option<String>,
    /// The deployment's audit secret, as a reference (`env:NAME` or
    /// `file:PATH`): audit digests of values (a grant's `value_sha256`) are
    /// HMAC-SHA256 under it, so a short value cannot be found by hashing
    /// guesses. Unset: a random secret per process (digests then compare only
    /// within one process' life). Every process of a deployment sets the same.
    #[arg(long, env = "ADAS_AUDIT_SECRET", hide_env_values = true)]
    pub audit_secret: Option<String>,
    /// Requests per second one principal may make (burst: twice that, at least
    /// one); over it, RESOURCE_EXHAUSTED with RetryInfo. Not applied in dev mode
    /// nor to the suite's own `service` calls.
    #[arg(long, env = "ADAS_RATE_PER_PRINCIPAL", default_value_t = 50.0)]
    pub rate_per_principal: f64,
    /// Requests per second all principals of one tenant may make together.
    #[arg(long, env = "ADAS_RATE_PER_TENANT", default_value_t = 500.0)]
    pub rate_per_tenant: f64,
    /// Serve over TLS with this certificate chain (PEM); needs --tls-key.
    #[arg(long, env = "ADAS_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, env = "ADAS_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Accept client certificates signed by this CA (PEM): mTLS. A certificate
    /// whose SHA-256 is in the auth file authenticates as that principal.
    #[arg(long, env = "ADAS_TLS_CLIENT_CA", requires = "tls_cert")]
    pub tls_client_ca: Option<PathBuf>,
    /// CA (PEM) that signs the peers' certificates, for `https://` peer
    /// addresses; --tls-cert/--tls-key are presented to them as client identity.
    #[arg(long, env = "ADAS_PEER_CA")]
    pub peer_ca: Option<PathBuf>,
    /// Extra CA certificates (PEM) trusted for `https://` MCP servers, beside the
    /// system's roots.
    #[arg(long, env = "ADAS_MCP_CA")]
    pub mcp_ca: Option<PathBuf>,
    /// Jobs one principal may have active (not ended) at once; StartJob beyond
    /// it is RESOURCE_EXHAUSTED with RetryInfo. Not applied in dev mode.
    #[arg(
        long,
        env = "ADAS_MAX_ACTIVE_JOBS_PER_PRINCIPAL",
        default_value_t = 100
    )]
    pub max_active_jobs_per_principal: u64,
    /// Jobs one tenant may have active at once.
    #[arg(long, env = "ADAS_MAX_ACTIVE_JOBS_PER_TENANT", default_value_t = 1000)]
    pub max_active_jobs_per_tenant: u64,
    /// Jobs a skill's schedule triggers may start per minute, all its
    /// triggers together (a period over it is skipped, never run late).
    #[arg(long, env = "ADAS_TRIGGER_JOBS_PER_MINUTE", default_value_t = 6)]
    pub trigger_jobs_per_minute: u64,
    /// Jobs one tenant's schedule triggers may start per minute, all skills
    /// together.
    #[arg(
        long,
        env = "ADAS_TRIGGER_TENANT_JOBS_PER_MINUTE",
        default_value_t = 30
    )]
    pub trigger_tenant_jobs_per_minute: u64,
    /// Jobs a skill's schedule triggers may start in 24 hours.
    #[arg(long, env = "ADAS_TRIGGER_JOBS_PER_DAY", default_value_t = 500)]
    pub trigger_jobs_per_day: u64,
    /// Jobs this process advances at once (adas-orchestrator and `adas up`): a
    /// concurrency budget, not threads — each job in flight is a task, and a
    /// job waiting on a tool or paused on a person holds no thread.
    #[arg(long, env = "ADAS_WORKERS", default_value_t = 256)]
    pub workers: usize,
    /// Threads of the process' async runtime; absent: one per core. One
    /// thread costs less CPU per job while the process is lightly loaded (no
    /// work-stealing wake-ups between threads) and caps it at one core when it
    /// is not: e2e/BENCH.md measures both.
    #[arg(long, env = "ADAS_RUNTIME_THREADS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub runtime_threads: Option<u16>,
    /// Where a worker's step (plan, next call, gate, finalization, polish) is
    /// decided: `local` in this process, `remote` through the services.
    #[arg(long, env = "ADAS_STEP_ENGINE", value_enum, default_value = "local")]
    pub step_engine: StepEngine,
    /// A job held by a silent worker this long (ms) is reclaimed by another.
    #[arg(long, env = "ADAS_VISIBILITY_TIMEOUT_MS", default_value_t = 60_000)]
    pub visibility_timeout_ms: u64,
    /// Finished jobs (completed, failed, cancelled) created longer ago than
    /// this (ms) are deleted from the store with their events, and their local
    /// archives with them; 0 keeps them forever. Default 30 days.
    #[arg(long, env = "ADAS_JOB_RETENTION_MS", default_value_t = 30 * 24 * 3_600_000)]
    pub job_retention_ms: u64,
    /// A paused job that has waited this long (ms) is packed into one key —
    /// its record and its events, compressed — by the next park sweep (about
    /// every half of it, between 1 s and 30 s); one answered sooner is never
    /// packed. Redis only.
    #[arg(long, env = "ADAS_PARK_AFTER_MS", default_value_t = 10_000)]
    pub park_after_ms: u64,
    /// The key prefix of this deployment's data in Redis (`adas:<prefix>:…`).
    /// Not a tenant: tenants come from the callers' principals.
    #[arg(long, env = "ADAS_REDIS_PREFIX", default_value = "default")]
    pub redis_prefix: String,
    /// Log output format.
    #[arg(long, env = "ADAS_LOG_FORMAT", value_enum, default_value = "pretty")]
    pub log_format: LogFormat,
    /// Log filter in `tracing` env-filter syntax, e.g. `info,adas_state=debug`.
    /// rmcp's info lines (three per stateless MCP request) are left out unless asked for.
    #[arg(long, env = "ADAS_LOG", default_value = "info,rmcp=warn")]
    pub log: String,
    /// Per-request timeout in milliseconds (streams are exempt).
    #[arg(long, env = "ADAS_REQUEST_TIMEOUT_MS", default_value_t = 30_000)]
    pub request_timeout_ms: u64,
    /// Maximum requests handled at once by this process; more wait their turn.
    #[arg(long, env = "ADAS_CONCURRENCY_LIMIT", default_value_t = 1024)]
    pub concurrency_limit: usize,
    /// Maximum size of one gRPC message in bytes, both directions.
    #[arg(long, env = "ADAS_MAX_MESSAGE_BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_message_bytes: usize,
    /// Answers shorter than this many bytes go out uncompressed even to a
    /// client that accepts gzip, and event streams are never compressed;
    /// `0` compresses every answer a client accepts in gzip.
    #[arg(long, env = "ADAS_COMPRESS_MIN_BYTES", default_value_t = crate::compression::DEFAULT_MIN_BYTES)]
    pub compress_min_bytes: usize,
    /// How long in-flight requests get to finish after SIGTERM, in milliseconds.
    #[arg(long, env = "ADAS_SHUTDOWN_GRACE_MS", default_value_t = 10_000)]
    pub shutdown_grace_ms: u64,
    /// After SIGTERM, how long (ms) the process keeps serving while health
    /// says NOT_SERVING, so readiness probes and load balancers see the drain
    /// before the listener closes.
    #[arg(long, env = "ADAS_DRAIN_DELAY_MS", default_value_t = 0)]
    pub drain_delay_ms: u64,
    /// What Redis must guarantee at startup: `strict` (the default unless in
    /// dev mode, i.e. without --auth-file) refuses one that can lose
    /// acknowledged writes or evict keys; `relaxed` only warns.
    #[arg(long, env = "ADAS_DURABILITY", value_enum)]
    pub durability: Option<Durability>,
    /// Serve Prometheus metrics (`GET /metrics`: RPCs by method and code with
    /// latency histograms, jobs, tools, gate, caches, models) over plain HTTP
    /// on this address; off when absent.
    #[arg(long, env = "ADAS_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
    /// Export traces (OpenTelemetry) to this collector, e.g.
    /// `http://127.0.0.1:4318` (OTLP/HTTP) or `http://127.0.0.1:4317` with
    /// `--otlp-protocol grpc`; absent, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`, else off. While on, the W3C
    /// `traceparent` of callers is continued and passed to peers and MCP servers.
    #[arg(long, env = "ADAS_OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,
    /// `grpc` or `http/protobuf` (the default); absent,
    /// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL`.
    #[arg(long, env = "ADAS_OTLP_PROTOCOL")]
    pub otlp_protocol: Option<String>,
    /// Serve the web console (plain HTTP) on this address: jobs, the waiting
    /// widget, approvals, skills. `adas up` serves it on 127.0.0.1:50070
    /// unless told otherwise; the orchestrator binary serves it for its
    /// deployment (reaching the other services at the peer addresses).
    #[arg(long, env = "ADAS_CONSOLE_LISTEN")]
    pub console_listen: Option<SocketAddr>,
    /// Host names the console answers besides its own address (and, on
    /// loopback, `localhost`): `console.example.com` or `name:port`; any other
    /// `Host` is refused (DNS rebinding). Repeat or comma-separate.
    #[arg(
        long = "console-host",
        env = "ADAS_CONSOLE_HOSTS",
        value_delimiter = ','
    )]
    pub console_hosts: Vec<String>,
    /// A trace UI's page of one trace, with `{trace_id}` where the id goes
    /// (`http://localhost:16686/trace/{trace_id}` for Jaeger): each job page
    /// of the console links its trace there.
    #[arg(long, env = "ADAS_CONSOLE_TRACE_URL")]
    pub console_trace_url: Option<String>,
    /// Secret references a tenant's jobs may bind to credential resources:
    /// `TENANT=PATTERN` (`acme=secret:acme-*`, `*=vault:shared/db`); any other
    /// reference is refused. None by default. Repeat or comma-separate.
    #[arg(
        long = "secret-allow",
        env = "ADAS_SECRET_ALLOW",
        value_delimiter = ','
    )]
    pub secret_allow: Vec<String>,
    /// Connection ids of skill exports mapped to MCP servers for every tenant:
    /// `ID=URL` (`gcal-mcp=http://10.0.0.7:9000/mcp`), under the egress
    /// policy; a tenant's own mapping (`adas connector put`) wins. Repeat or
    /// comma-separate.
    #[arg(long = "connector", env = "ADAS_CONNECTORS", value_delimiter = ',')]
    pub connectors: Vec<String>,
    /// Most bytes of artifacts one slag's focus cache keeps (large tool outputs).
    #[arg(long, env = "ADAS_FOCUS_CACHE_MAX_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub focus_cache_max_bytes: u64,
    /// Most artifacts one slag's focus cache keeps.
    #[arg(long, env = "ADAS_FOCUS_CACHE_MAX_ENTRIES", default_value_t = 10_000)]
    pub focus_cache_max_entries: usize,
    /// The models (none configured: the deterministic path).
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Models for intent, planning, finalization, polishing and queries. Without
/// any, every decision is the deterministic default.
#[derive(Debug, Clone, Default, Args)]
pub struct LlmArgs {
    /// A JSON file of models: `{"models": [{"name", "provider", "base_url",
    /// "model", "api_key": "env:NAME", ...}], "default", "job_token_budget"}`.
    #[arg(long, env = "ADAS_LLM_CONFIG")]
    pub llm_config: Option<PathBuf>,
    /// One model from flags/env: `openai` (any Chat Completions API) or `anthropic`.
    #[arg(long, env = "ADAS_LLM_PROVIDER")]
    pub llm_provider: Option<String>,
    /// Its base URL (OpenAI-style up to `/v1`); setting it configures the model.
    #[arg(long, env = "ADAS_LLM_BASE_URL")]
    pub llm_base_url: Option<String>,
    /// Its provider model id.
    #[arg(long, env = "ADAS_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// The name skills select it by in `engine.model` (default `default`); it
    /// is also the default for skills naming a model that is not configured.
    #[arg(long, env = "ADAS_LLM_NAME")]
    pub llm_name: Option<String>,
    /// Its API key as a secret reference: `env:NAME` or `file:PATH`, never the key.
    #[arg(long, env = "ADAS_LLM_API_KEY", hide_env_values = true)]
    pub llm_api_key: Option<String>,
    /// Per-call timeout in milliseconds (default 30000).
    #[arg(long, env = "ADAS_LLM_TIMEOUT_MS")]
    pub llm_timeout_ms: Option<u64>,
    /// Output tokens per call at most (default 1024).
    #[arg(long, env = "ADAS_LLM_MAX_TOKENS")]
    pub llm_max_tokens: Option<u32>,
    /// Retries on 429, 5xx and timeouts (default 2).
    #[arg(long, env = "ADAS_LLM_RETRIES")]
    pub llm_retries: Option<usize>,
    /// Tokens one job may spend on models in all (default 200000; 0: no limit).
    #[arg(long, env = "ADAS_LLM_JOB_TOKEN_BUDGET")]
    pub llm_job_token_budget: Option<u64>,
    /// Record every model exchange as a JSON file in this directory.
    #[arg(long, env = "ADAS_LLM_RECORD")]
    pub llm_record: Option<PathBuf>,
    /// Answer every model call from recorded exchanges in this directory (no network).
    #[arg(long, env = "ADAS_LLM_REPLAY")]
    pub llm_replay: Option<PathBuf>,
}

impl ServerArgs {
    /// Resolves the flags into a config, with `default_port` when `--listen` is absent.
    pub fn into_config(self, default_port: u16) -> ServerConfig {
        // Dev mode is a laptop's: only a deployment with callers demands durability.
        let durability = self.durability.unwrap_or(if self.auth_file.is_some() {
            Durability::Strict
        } else {
            Durability::Relaxed
        });
        ServerConfig {
            listen: self
                .listen
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], default_port))),
            redis_url: self.redis_url.filter(|url| !url.trim().is_empty()),
            memory_root: self.memory_root,
            templates_dir: self.templates_dir,
            core_tools_ttl: Duration::from_millis(self.core_tools_ttl_ms),
            mcp_tools_ttl: Duration::from_millis(self.mcp_tools_ttl_ms),
            demo_mcp_url: self.demo_mcp_url,
            mcp_allow: self.mcp_allow,
            mcp_stdio: self.mcp_stdio,
            auth_file: self.auth_file,
            tls: self.tls_cert.zip(self.tls_key).map(|(cert, key)| TlsFiles {
                cert,
                key,
                client_ca: self.tls_client_ca,
            }),
            peer_ca: self.peer_ca,
            mcp_ca: self.mcp_ca,
            max_active_jobs_per_principal: self.max_active_jobs_per_principal.max(1),
            max_active_jobs_per_tenant: self.max_active_jobs_per_tenant.max(1),
            trigger_limits: TriggerLimits {
                per_skill_minute: self.trigger_jobs_per_minute,
                per_tenant_minute: self.trigger_tenant_jobs_per_minute,
                per_skill_day: self.trigger_jobs_per_day,
            },
            rate_per_principal: self.rate_per_principal,
            rate_per_tenant: self.rate_per_tenant,
            peer_key: self.peer_key.filter(|key| !key.trim().is_empty()),
            audit_secret: self.audit_secret.filter(|secret| !secret.trim().is_empty()),
            workers: self.workers,
            runtime_threads: self.runtime_threads.map(usize::from),
            step_engine: self.step_engine,
            visibility_timeout: Duration::from_millis(self.visibility_timeout_ms),
            job_retention: (self.job_retention_ms > 0)
                .then(|| Duration::from_millis(self.job_retention_ms)),
            park_after: Duration::from_millis(self.park_after_ms),
            redis_prefix: self.redis_prefix,
            log_format: self.log_format,
            log: self.log,
            request_timeout: Duration::from_millis(self.request_timeout_ms),
            concurrency_limit: self.concurrency_limit.max(1),
            max_message_bytes: self.max_message_bytes,
            compress_min_bytes: self.compress_min_bytes,
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            drain_delay: Duration::from_millis(self.drain_delay_ms),
            durability,
            metrics_listen: self.metrics_listen,
            otlp: crate::telemetry::OtlpFlags {
                endpoint: self.otlp_endpoint,
                protocol: self.otlp_protocol,
            },
            console_listen: self.console_listen,
            console_hosts: self.console_hosts,
            console_trace_url: self.console_trace_url,
            secret_allow: self.secret_allow,
            connectors: self.connectors,
            focus_cache_max_bytes: self.focus_cache_max_bytes,
            focus_cache_max_entries: self.focus_cache_max_entries.max(1),
            llm: self.llm,
        }
    }
}

/// The resolved server configuration; tests build it directly.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Redis URL; `None` means in-memory state.
    pub redis_url: Option<String>,
    /// Tenant data root on disk.
    pub memory_root: PathBuf,
    /// Skill templates directory; `None`: the templates built into the binary.
    pub templates_dir: Option<PathBuf>,
    /// Freshness of the cached core tools.
    pub core_tools_ttl: Duration,
    /// Freshness of a cached MCP tool list.
    pub mcp_tools_ttl: Duration,
    /// URL of the demo MCP server.
    pub demo_mcp_url: String,
    /// Egress allow-list entries for MCP servers.
    pub mcp_allow: Vec<String>,
    /// Operator-configured stdio MCP servers, `NAME=COMMAND`.
    pub mcp_stdio: Vec<String>,
    /// The auth file; `None`: dev mode.
    pub auth_file: Option<PathBuf>,
    /// The key presented to peers.
    pub peer_key: Option<String>,
    /// The audit secret's reference (`env:NAME` / `file:PATH`).
    pub audit_secret: Option<String>,
    /// Serve over TLS (and mTLS when a client CA is given).
    pub tls: Option<TlsFiles>,
    /// CA of the peers' certificates.
    pub peer_ca: Option<PathBuf>,
    /// Extra roots for HTTPS MCP servers.
    pub mcp_ca: Option<PathBuf>,
    /// Active jobs per principal.
    pub max_active_jobs_per_principal: u64,
    /// Active jobs per tenant.
    pub max_active_jobs_per_tenant: u64,
    /// How many jobs schedule triggers may start.
    pub trigger_limits: TriggerLimits,
    /// Requests per second per principal.
    pub rate_per_principal: f64,
    /// Requests per second per tenant.
    pub rate_per_tenant: f64,
    /// Jobs this process advances at once.
    pub workers: usize,
    /// Threads of the async runtime (`None`: one per core).
    pub runtime_threads: Option<usize>,
    /// Where a worker's step is decided.
    pub step_engine: StepEngine,
    /// Reclaim a job whose worker is silent this long.
    pub visibility_timeout: Duration,
    /// Delete finished jobs created longer ago than this; `None` keeps them.
    pub job_retention: Option<Duration>,
    /// Pack a paused job once it has waited this long.
    pub park_after: Duration,
    /// Key prefix in Redis.
    pub redis_prefix: String,
    /// Log output format.
    pub log_format: LogFormat,
    /// Log filter.
    pub log: String,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// Maximum concurrent requests.
    pub concurrency_limit: usize,
    /// Maximum message size in bytes.
    pub max_message_bytes: usize,
    /// Smallest answer compressed for a client that accepts gzip (0: any).
    pub compress_min_bytes: usize,
    /// Drain time after SIGTERM.
    pub shutdown_grace: Duration,
    /// NOT_SERVING before the listener closes, after SIGTERM.
    pub drain_delay: Duration,
    /// What Redis must guarantee at startup.
    pub durability: Durability,
    /// Where the metrics page is served; `None`: nowhere.
    pub metrics_listen: Option<SocketAddr>,
    /// Where spans go, when tracing (with OpenTelemetry's variables).
    pub otlp: crate::telemetry::OtlpFlags,
    /// Where the web console is served; `None`: nowhere.
    pub console_listen: Option<SocketAddr>,
    /// Host names the console answers besides its own address.
    pub console_hosts: Vec<String>,
    /// The trace-UI template the console links job traces to.
    pub console_trace_url: Option<String>,
    /// `TENANT=PATTERN` entries: the secret references a tenant's jobs may bind.
    pub secret_allow: Vec<String>,
    /// `ID=URL` entries: the deployment's connectors (see `adas_boot::tool_resolver`).
    pub connectors: Vec<String>,
    /// Bound of each slag's focus cache, in bytes.
    pub focus_cache_max_bytes: u64,
    /// Bound of each slag's focus cache, in artifacts.
    pub focus_cache_max_entries: usize,
    /// The models; none: the deterministic path.
    pub llm: LlmArgs,
}

impl ServerConfig {
    /// A config for tests and embedding: loopback on a free port, in-memory state.
    pub fn local(memory_root: PathBuf) -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            redis_url: None,
            memory_root,
            templates_dir: None,
            core_tools_ttl: Duration::from_millis(300_000),
            mcp_tools_ttl: Duration::from_millis(60_000),
            demo_mcp_url: DEFAULT_DEMO_MCP_URL.into(),
            mcp_allow: Vec::new(),
            mcp_stdio: Vec::new(),
            auth_file: None,
            peer_key: None,
            audit_secret: None,
            tls: None,
            peer_ca: None,
            mcp_ca: None,
            max_active_jobs_per_principal: 100,
            max_active_jobs_per_tenant: 1000,
            trigger_limits: TriggerLimits::default(),
            rate_per_principal: 50.0,
            rate_per_tenant: 500.0,
            workers: 256,
            runtime_threads: None,
            step_engine: StepEngine::Local,
            visibility_timeout: Duration::from_secs(60),
            job_retention: Some(Duration::from_secs(30 * 24 * 3600)),
            park_after: Duration::from_secs(10),
            redis_prefix: "default".into(),
            log_format: LogFormat::Pretty,
            log: "info".into(),
            request_timeout: Duration::from_secs(30),
            concurrency_limit: 1024,
            max_message_bytes: 4 * 1024 * 1024,
            compress_min_bytes: crate::compression::DEFAULT_MIN_BYTES,
            shutdown_grace: Duration::from_secs(10),
            drain_delay: Duration::ZERO,
            durability: Durability::Relaxed,
            metrics_listen: None,
            otlp: crate::telemetry::OtlpFlags::default(),
            console_listen: None,
            console_hosts: Vec::new(),
            console_trace_url: None,
            secret_allow: Vec::new(),
            connectors: Vec::new(),
            focus_cache_max_bytes: 64 * 1024 * 1024,
            focus_cache_max_entries: 10_000,
            llm: LlmArgs::default(),
        }
    }

    /// Refuses, before anything binds, a dev-mode process (no auth file: every
    /// caller is an admin) that would listen beyond this machine — on any of
    /// its listeners: gRPC, metrics, console and `extra` (the demo MCP
    /// server, `adas up`'s console).
    pub fn check_dev_listeners(
        &self,
        extra: &[(&str, SocketAddr)],
    ) -> Result<(), crate::RuntimeError> {
        if self.auth_file.is_some() {
            return Ok(());
        }
        let configured = [
            ("--listen", Some(self.listen)),
            ("--metrics-listen", self.metrics_listen),
            ("--console-listen", self.console_listen),
        ];
        let all = configured
            .into_iter()
            .filter_map(|(what, addr)| addr.map(|addr| (what, addr)))
            .chain(extra.iter().copied());
        for (what, addr) in all {
            if !addr.ip().is_loopback() {
                return Err(crate::RuntimeError::Startup(format!(
                    "{what} {addr}: no --auth-file (ADAS_AUTH_FILE), so every caller would be \
                     an admin; dev mode listens on loopback only — create keys with \
                     `adas auth key create` to listen on other addresses"
                )));
            }
        }
        Ok(())
    }

    /// How this process recognises callers: the auth file, or dev mode.
    pub fn authenticator(&self) -> Result<crate::auth::Authenticator, crate::RuntimeError> {
        match &self.auth_file {
            Some(path) => {
                crate::auth::Authenticator::from_file(path).map_err(crate::RuntimeError::Startup)
            }
            None => Ok(crate::auth::Authenticator::dev()),
        }
    }

    /// The request-rate quotas.
    pub fn quotas(&self) -> crate::quota::Quotas {
        let rate = |per_second: f64| crate::quota::Rate {
            per_second: per_second.max(f64::MIN_POSITIVE),
            burst: (per_second * 2.0).max(1.0),
        };
        crate::quota::Quotas::new(rate(self.rate_per_principal), rate(self.rate_per_tenant))
    }

    /// The credentials for calls to peers: the key, and for `https://` peers
    /// the CA to verify them and this process's certificate as client identity.
    pub fn peer_credentials(&self) -> Result<crate::auth::Credentials, crate::RuntimeError> {
        let credentials = crate::auth::Credentials::new(self.peer_key.as_deref())
            .map_err(crate::RuntimeError::Startup)?;
        let Some(ca) = &self.peer_ca else {
            return Ok(credentials);
        };
        let mut tls = tonic::transport::ClientTlsConfig::new()
            .ca_certificate(tonic::transport::Certificate::from_pem(read_file(ca)?));
        if let Some(files) = &self.tls {
            tls = tls.identity(tonic::transport::Identity::from_pem(
                read_file(&files.cert)?,
                read_file(&files.key)?,
            ));
        }
        Ok(credentials.with_tls(tls))
    }
}

/// A configured file's bytes, or a startup error naming it.
pub(crate) fn read_file(path: &std::path::Path) -> Result<Vec<u8>, crate::RuntimeError> {
    std::fs::read(path)
        .map_err(|error| crate::RuntimeError::Startup(format!("{}: {error}", path.display())))
}

/// The server's TLS files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// Certificate chain (PEM).
    pub cert: PathBuf,
    /// Private key (PEM).
    pub key: PathBuf,
    /// Client CA (PEM): mTLS.
    pub client_ca: Option<PathBuf>,
}

/// Addresses of the peer services, one flag/env per service.
#[derive(Debug, Clone, Args)]
pub struct PeerArgs {
    /// IntentService address.
    #[arg(
        long,
        env = "ADAS_INTENT_ADDR",
        default_value = "http://127.0.0.1:50051"
    )]
    pub intent_addr: String,
    /// SkillRegistryService address.
    #[arg(
        long,
        env = "ADAS_SKILL_REGISTRY_ADDR",
        default_value = "http://127.0.0.1:50052"
    )]
    pub skill_registry_addr: String,
    /// OrchestratorService address.
    #[arg(
        long,
        env = "ADAS_ORCHESTRATOR_ADDR",
        default_value = "http://127.0.0.1:50053"
    )]
    pub orchestrator_addr: String,
    /// GateService address.
    #[arg(long, env = "ADAS_GATE_ADDR", default_value = "http://127.0.0.1:50054")]
    pub gate_addr: String,
    /// DalAgentService address.
    #[arg(
        long,
        env = "ADAS_DAL_AGENT_ADDR",
        default_value = "http://127.0.0.1:50055"
    )]
    pub dal_agent_addr: String,
}

/// Resolved peer addresses.
pub type PeerAddrs = PeerArgs;

/// How many jobs schedule triggers may start: a skill's per minute and per
/// day, a tenant's per minute (counted in the store, so across replicas).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TriggerLimits {
    /// Per skill, per minute.
    pub per_skill_minute: u64,
    /// Per tenant, per minute.
    pub per_tenant_minute: u64,
    /// Per skill, per 24 hours.
    pub per_skill_day: u64,
}

impl Default for TriggerLimits {
    fn default() -> Self {
        Self {
            per_skill_minute: 6,
            per_tenant_minute: 30,
            per_skill_day: 500,
        }
    }
}
