//! `adas-orchestrator`: the service and its workers (see `adas-orchestrator --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-orchestrator",
        "ADAS OrchestratorService: job lifecycle, queue, workers",
        ports::ORCHESTRATOR,
        |config, peers| async move {
            let store = adas_wire::open_store(&config).await?;
            let catalog = adas_wire::open_catalog(&config, &store)?;
            let repo = adas_jobs::JobRepo::new(store, config.memory_root.clone());
            let (stop, stopped) = tokio::sync::watch::channel(false);
            let mcp = adas_wire::mcp_connector(&config)?;
            let workers = adas_orchestrator::spawn_workers(
                &config,
                repo.clone(),
                catalog.clone(),
                (&peers.intent_addr, &peers.dal_agent_addr, &peers.gate_addr),
                mcp.clone(),
                stopped,
            )?;
            let server = GrpcServer::new(&config).add_service(
                adas_orchestrator::Orchestrator::new(repo.clone(), catalog, &config)
                    .into_service(config.max_message_bytes),
            );
            let served = adas_runtime::serve_until_shutdown(&config, server).await;
            let _ = stop.send(true);
            for worker in workers {
                let _ = worker.await;
            }
            repo.flush_archive().await;
            mcp.close().await;
            served
        },
    )
}
