//! `adas-intent`: runs the service alone (see `adas-intent --help`).

use std::sync::Arc;

use adas_runtime::{GrpcServer, ports};
use adas_skill::Catalog;

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-intent",
        "ADAS IntentService: intent and entity detection, plans",
        ports::INTENT,
        |config, _peers| async move {
            let catalog = Arc::new(
                Catalog::new(&config.memory_root, &config.templates_dir)
                    .with_var("ADAS_DEMO_MCP_URL", &config.demo_mcp_url),
            );
            let intent = adas_intent::Intent::new(catalog, Arc::new(adas_nlu::WorkflowPlanner));
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config).add_service(intent.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
