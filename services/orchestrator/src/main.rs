//! `adas-orchestrator`: the service and its workers (see `adas-orchestrator --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-orchestrator",
        "ADAS OrchestratorService: job lifecycle, queue, workers",
        ports::ORCHESTRATOR,
        |config, peers| async move {
            let store = adas_boot::open_store(&config).await?;
            let catalog = adas_boot::open_catalog(&config, &store)?;
            let repo = adas_jobs::JobRepo::new(store, config.memory_root.clone());
            let (stop, stopped) = tokio::sync::watch::channel(false);
            let mcp = adas_boot::mcp_connector(&config)?;
            let workers = adas_orchestrator::spawn_workers(
                &config,
                repo.clone(),
                catalog.clone(),
                (&peers.intent_addr, &peers.dal_agent_addr, &peers.gate_addr),
                mcp.clone(),
                stopped,
            )?;
            let server = GrpcServer::new(&config).add_service(
                adas_orchestrator::Orchestrator::new(repo.clone(), catalog, &config)?
                    .into_service(config.max_message_bytes),
            );
            let listener = adas_runtime::bind(config.listen).await?;
            if let Some(addr) = config.console_listen {
                // The console reaches this orchestrator where it listens and
                // the other services at their peer addresses.
                let local =
                    listener
                        .local_addr()
                        .map_err(|source| adas_runtime::RuntimeError::Bind {
                            addr: config.listen,
                            source,
                        })?;
                let own = format!("http://127.0.0.1:{}", local.port());
                let connect = adas_runtime::connect_lazy;
                adas_console::Console::of_services(
                    connect(&peers.skill_registry_addr)?,
                    connect(&own)?,
                    connect(&peers.dal_agent_addr)?,
                    connect(&peers.gate_addr)?,
                )
                .with_host_names(&config.console_hosts)
                .spawn(addr, adas_runtime::shutdown_signal())
                .await
                .map_err(|source| adas_runtime::RuntimeError::Bind { addr, source })?;
            }
            let served = server
                .serve(listener, adas_runtime::shutdown_signal())
                .await;
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
