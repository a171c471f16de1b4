//! adas-proto: the generated Rust code of the `adas.v1` gRPC contracts in `proto/`,
//! and of `adas.storage.v1`, the stored form of a job.
//!
//! Generated once here (build.rs, protox + tonic-prost-build, no system `protoc`);
//! nobody edits it. Domain crates never import these types: services convert them
//! at their edge.

#![allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    missing_debug_implementations
)]

include!(concat!(env!("OUT_DIR"), "/adas_proto_include.rs"));

/// The `adas.v1` package.
pub use adas::v1 as pb;

mod storage_include {
    include!(concat!(env!("OUT_DIR"), "/adas_storage_include.rs"));
}

/// The `adas.storage.v1` package: how jobs and their events are stored
/// (adas-jobs' encoding, never on the wire).
pub use storage_include::adas::storage::v1 as storage;

/// Encoded `FileDescriptorSet` of every adas.v1 file and its imports, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/adas_descriptor.bin"));

/// Fully qualified gRPC service names, as health checks and reflection list them.
pub mod service_names {
    /// `adas.v1.SkillRegistryService`.
    pub const SKILL_REGISTRY: &str = "adas.v1.SkillRegistryService";
    /// `adas.v1.IntentService`.
    pub const INTENT: &str = "adas.v1.IntentService";
    /// `adas.v1.OrchestratorService`.
    pub const ORCHESTRATOR: &str = "adas.v1.OrchestratorService";
    /// `adas.v1.GateService`.
    pub const GATE: &str = "adas.v1.GateService";
    /// `adas.v1.DalAgentService`.
    pub const DAL_AGENT: &str = "adas.v1.DalAgentService";
}
