//! `adas-dal-agent`: runs the service alone (see `adas-dal-agent --help`).

use adas_runtime::{GrpcServer, RuntimeError, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-dal-agent",
        "ADAS DalAgentService: missing inputs, waiting, resume",
        ports::DAL_AGENT,
        |config, _peers| async move {
            let store = adas_state::open(config.redis_url.as_deref(), &config.redis_prefix)
                .await
                .map_err(|error| RuntimeError::Startup(error.to_string()))?;
            let catalog = adas_wire::open_catalog(&config)?;
            let server = adas_dal_agent::build(
                &config,
                store,
                catalog,
                adas_wire::mcp_connector(&config)?,
                config.llm()?,
            );
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config).add_service(server.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
