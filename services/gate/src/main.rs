//! `adas-gate`: runs the service alone (see `adas-gate --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-gate",
        "ADAS GateService: pre-tool gate, approvals, finalization, polishing",
        ports::GATE,
        |config, _peers| async move {
            let store = adas_boot::open_store(&config).await?;
            let catalog = adas_boot::open_catalog(&config, &store)?;
            let gate = adas_gate::Gate::with_llm(
                catalog,
                adas_jobs::JobRepo::new(store, config.memory_root.clone()),
                adas_boot::models(&config)?,
            );
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config).add_service(gate.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
