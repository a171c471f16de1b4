//! `adas-skill-registry`: runs the service alone (see `adas-skill-registry --help`).

use adas_runtime::{GrpcServer, ports};

fn main() -> std::process::ExitCode {
    adas_runtime::service_main(
        "adas-skill-registry",
        "ADAS SkillRegistryService: skills, templates, resources, tools",
        ports::SKILL_REGISTRY,
        |config, _peers| async move {
            let store = adas_boot::open_store(&config).await?;
            let catalog = adas_boot::open_catalog(&config, &store)?;
            let registry = adas_skill_registry::build(
                &config,
                store,
                catalog,
                adas_boot::mcp_connector(&config)?,
            )?;
            adas_runtime::serve_until_shutdown(
                &config,
                GrpcServer::new(&config)
                    .add_service(registry.into_service(config.max_message_bytes)),
            )
            .await
        },
    )
}
