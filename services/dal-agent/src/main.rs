//! `adas-dal-agent`: runs the service alone (see `adas-dal-agent --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-dal-agent",
        "ADAS DalAgentService: missing inputs, waiting, resume",
        ports::DAL_AGENT,
        |config, _peers| async move {
            let store = adas_boot::open_store(&config).await?;
            let catalog = adas_boot::open_catalog(&config, &store)?;
            let server = adas_dal_agent::build(
                &config,
                store,
                catalog,
                adas_boot::mcp_connector(&config)?,
                adas_boot::models(&config)?,
            )?;
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config).add_service(server.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
