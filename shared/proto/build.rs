//! Compiles `proto/` (the public contract) and `storage/` (the private stored
//! form of a job, a module of its own that no client package carries) with
//! protox (no system `protoc`) and generates the tonic code.

use std::path::PathBuf;

use prost::Message;

/// How jobs are stored: compiled apart so reflection never lists it.
const STORAGE_PROTOS: &[&str] = &["adas/storage/v1/job_record.proto"];

const SERVICE_PROTOS: &[&str] = &[
    "adas/v1/skill_registry_service.proto",
    "adas/v1/intent_service.proto",
    "adas/v1/orchestrator_service.proto",
    "adas/v1/gate_service.proto",
    "adas/v1/dal_agent_service.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let proto_root = manifest_dir.join("../../proto").canonicalize()?;
    let storage_root = manifest_dir.join("storage").canonicalize()?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    // protox does not tell cargo what it read, so watch the whole tree.
    println!("cargo:rerun-if-changed={}", proto_root.display());
    println!("cargo:rerun-if-changed={}", storage_root.display());
    for entry in walk(&proto_root)?.into_iter().chain(walk(&storage_root)?) {
        println!("cargo:rerun-if-changed={}", entry.display());
    }

    let file_descriptors = protox::compile(SERVICE_PROTOS, [&proto_root])?;

    // tonic-prost-build ignores `file_descriptor_set_path` when fed a compiled set,
    // so encode the descriptor set for reflection ourselves.
    std::fs::write(
        out_dir.join("adas_descriptor.bin"),
        file_descriptors.encode_to_vec(),
    )?;

    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        // Later issues fill RPCs in one by one; until then they answer UNIMPLEMENTED.
        .generate_default_stubs(true)
        // Error details and google.rpc.Status come from tonic-types, so they are not generated twice.
        .extern_path(".google.rpc", "::tonic_types::pb")
        // Cross-package references (adas.v1 -> google.api) need one module tree.
        .include_file("adas_proto_include.rs")
        .compile_fds(file_descriptors)?;

    tonic_prost_build::configure()
        .build_client(false)
        .build_server(false)
        .include_file("adas_storage_include.rs")
        .compile_fds(protox::compile(STORAGE_PROTOS, [&storage_root])?)?;
    Ok(())
}

fn walk(dir: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files.extend(walk(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}
