//! `adas-intent`: runs the service alone (see `adas-intent --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-intent",
        "ADAS IntentService: intent and entity detection, plans",
        ports::INTENT,
        |config, _peers| async move {
            // Only skills are read from the store (on Redis they live there).
            let store = adas_boot::open_store(&config).await?;
            let catalog = adas_boot::open_catalog(&config, &store)?;
            let jobs = adas_jobs::JobRepo::new(store, config.memory_root.clone());
            let intent = adas_intent::Intent::new(
                catalog,
                jobs,
                adas_engine::planner(adas_boot::models(&config)?),
            );
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config).add_service(intent.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
