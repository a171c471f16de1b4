//! The SkillRegistryService handlers: skills, templates, resources, tool
//! resolution, pins and connectors, as the signed-in principal may.

use super::*;

#[tonic::async_trait]
impl SkillRegistryService for SkillRegistry {
    async fn get_skill(
        &self,
        request: Request<pb::GetSkillRequest>,
    ) -> Result<Response<pb::Skill>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let slag = slag_of("name", &request.get_ref().name)?;
        let skill = self.skill(&tenant, &slag).await?;
        Ok(adas_runtime::reply(convert::skill(&skill)))
    }

    async fn list_skills(
        &self,
        request: Request<pb::ListSkillsRequest>,
    ) -> Result<Response<pb::ListSkillsResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let scope = format!("{tenant} skills");
        let window =
            page_window(request.page_size, &request.page_token, &scope).map_err(|reason| {
                RegistryError::InvalidField {
                    field: "page_token",
                    reason,
                }
            })?;
        let (skills, total) = self
            .with_catalog(&tenant, move |catalog| {
                let slags = catalog.list()?;
                let total = slags.len();
                let skills = slags
                    .iter()
                    .skip(window.offset)
                    .take(window.size)
                    // A slag whose file never validated is listed by name only.
                    .map(|slag| {
                        catalog
                            .get(slag)
                            .map(|skill| convert::skill(&skill))
                            .unwrap_or_else(|_| convert::unloadable(slag))
                    })
                    .collect::<Vec<_>>();
                Ok((skills, total))
            })
            .await?;
        Ok(adas_runtime::reply(pb::ListSkillsResponse {
            skills,
            next_page_token: next_page_token(window, total, &scope),
        }))
    }

    async fn validate_skill(
        &self,
        request: Request<pb::ValidateSkillRequest>,
    ) -> Result<Response<pb::ValidateSkillResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let file_name = (!request.file_name.is_empty()).then_some(request.file_name.as_str());
        let format =
            format_of(request.format).unwrap_or_else(|| Format::detect(file_name, &request.source));
        // A check, never an action: nothing is resolved, contacted or run here
        // (the egress rule on `mcp_server` is decided from the text alone).
        let loaded = self
            .with_catalog(&tenant, move |catalog| {
                Ok(catalog.load(&request.source, format))
            })
            .await?;
        let diagnostics: Vec<pb::Diagnostic> =
            loaded.diagnostics.iter().map(convert::diagnostic).collect();
        Ok(adas_runtime::reply(pb::ValidateSkillResponse {
            valid: !loaded.has_errors(),
            diagnostics,
        }))
    }

    async fn put_skill(
        &self,
        request: Request<pb::PutSkillRequest>,
    ) -> Result<Response<pb::Skill>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let principal = require_admin(&request)?;
        let request = request.into_inner();
        let slag = required_slag(&request.name)?;
        if request.source.trim().is_empty() {
            return Err(RegistryError::InvalidField {
                field: "source",
                reason: "source is empty".into(),
            }
            .into());
        }
        // The stored file is always YAML-compatible text; a JSON document is stored as written.
        if let Some(Format::Json) = format_of(request.format)
            && let Err(error) = serde_json::from_str::<serde_json::Value>(&request.source)
        {
            return Err(RegistryError::InvalidField {
                field: "source",
                reason: format!("format is JSON but the source is not: {error}"),
            }
            .into());
        }
        let broken = self
            .broken_contracts(&tenant, &slag, &request.source)
            .await?;
        if !broken.is_empty() {
            return Err(RegistryError::Document {
                slag,
                diagnostics: broken,
            }
            .into());
        }
        let author = principal.name.clone();
        let written = slag.clone();
        // Replacing the rules in force takes knowing which rules they are: a
        // write over an existing skill must carry its current etag.
        let lookup = slag.clone();
        if request.etag.is_empty()
            && self
                .with_catalog(&tenant, move |catalog| catalog.exists(&lookup))
                .await?
        {
            return Err(RegistryError::EtagRequired(slag).into());
        }
        let skill = self
            .with_catalog(&tenant, move |catalog| {
                let etag = (!request.etag.is_empty()).then_some(request.etag.as_str());
                Ok(catalog.put(&slag, &request.source, etag))
            })
            .await?
            .map_err(|error| match error {
                SkillError::Invalid { slag, diagnostics } => {
                    RegistryError::Document { slag, diagnostics }
                }
                other => RegistryError::Skill(other),
            })?;
        tracing::info!(target: "adas::audit", principal = %author, tenant = %principal.tenant, skill = %written, etag = %skill.etag, "skill written");
        let mut answer = convert::skill(&skill);
        answer
            .diagnostics
            .extend(self.unmapped_connections(&tenant, &skill).await?);
        // An unmapped connection is a fix to make: read before what is kept.
        answer.diagnostics.sort_by_key(|d| {
            (
                d.severity,
                adas_skill::diagnostics::reading_rank(&d.code),
                d.line,
                d.column,
            )
        });
        Ok(adas_runtime::reply(answer))
    }

    async fn delete_skill(
        &self,
        request: Request<pb::DeleteSkillRequest>,
    ) -> Result<Response<pb::DeleteSkillResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let principal = require_admin(&request)?;
        let request = request.into_inner();
        let slag = required_slag(&request.name)?;
        let name = format!("skills/{slag}");
        // A consumer missing would come back from a template on the next
        // job (a skill named like one is made from it), with no contract
        // checked: it goes only with the promise it keeps.
        if let Some((id, _)) = self.contracts_on(&tenant, &slag).await?.into_iter().next() {
            return Err(RegistryError::ContractConsumer(format!(
                "{name} is the consumer of a security contract of solutions/{id}: \
                 delete the solution, or put it without that contract, first"
            ))
            .into());
        }
        self.with_catalog(&tenant, move |catalog| {
            let etag = (!request.etag.is_empty()).then_some(request.etag.as_str());
            catalog.delete(&slag, etag)
        })
        .await?;
        tracing::info!(target: "adas::audit", principal = %principal.name, skill = %name, "skill deleted");
        Ok(adas_runtime::reply(pb::DeleteSkillResponse { name }))
    }

    async fn bootstrap_skill(
        &self,
        request: Request<pb::BootstrapSkillRequest>,
    ) -> Result<Response<pb::Skill>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        require_admin(&request)?;
        let request = request.into_inner();
        check_slag(&request.slag).map_err(|reason| RegistryError::InvalidField {
            field: "slag",
            reason,
        })?;
        // A solution's consumer is written only where its contract is checked
        // (PutSkill): a template knows nothing of the promise.
        let lookup = request.slag.clone();
        if !self
            .with_catalog(&tenant, move |catalog| catalog.exists(&lookup))
            .await?
            && let Some((id, _)) = self
                .contracts_on(&tenant, &request.slag)
                .await?
                .into_iter()
                .next()
        {
            return Err(RegistryError::ContractConsumer(format!(
                "skills/{} is the consumer of a security contract of solutions/{id}: \
                 put it with PutSkill, where the contract is checked, not from a template",
                request.slag
            ))
            .into());
        }
        let template = (!request.template.is_empty()).then_some(request.template);
        let skill = self
            .with_catalog(&tenant, move |catalog| {
                catalog.bootstrap(&request.slag, template.as_deref())
            })
            .await?;
        Ok(adas_runtime::reply(convert::skill(&skill)))
    }

    async fn list_templates(
        &self,
        request: Request<pb::ListTemplatesRequest>,
    ) -> Result<Response<pb::ListTemplatesResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let scope = format!("{tenant} templates");
        let window =
            page_window(request.page_size, &request.page_token, &scope).map_err(|reason| {
                RegistryError::InvalidField {
                    field: "page_token",
                    reason,
                }
            })?;
        let templates = self
            .with_catalog(&tenant, |catalog| catalog.templates())
            .await?;
        let total = templates.len();
        Ok(adas_runtime::reply(pb::ListTemplatesResponse {
            templates: templates
                .into_iter()
                .skip(window.offset)
                .take(window.size)
                .map(|template| pb::Template {
                    slag: template.slag,
                    display_name: template.display_name,
                    description: template.description,
                })
                .collect(),
            next_page_token: next_page_token(window, total, &scope),
        }))
    }

    async fn bind_resources(
        &self,
        request: Request<pb::BindResourcesRequest>,
    ) -> Result<Response<pb::BindResourcesResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let slag = slag_of("skill", &request.skill)?;
        let skill = self.skill(&tenant, &slag).await?;
        let given: BTreeMap<String, String> = request.resources.into_iter().collect();
        let bound = adas_skill::resources::bind(&skill.skill.resources, &given)
            .map_err(RegistryError::Resources)?;
        Ok(adas_runtime::reply(pb::BindResourcesResponse {
            resources: bound.redacted().into_iter().collect(),
            unbound_optional: bound.unbound_optional,
        }))
    }

    async fn resolve_tools(
        &self,
        request: Request<pb::ResolveToolsRequest>,
    ) -> Result<Response<pb::ResolveToolsResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let slag = slag_of("skill", &request.get_ref().skill)?;
        let skill = self.skill(&tenant, &slag).await?;
        let resolved = self
            .tools
            .resolve(&adas_jobs::tool_request(&skill, &tenant))
            .await
            .map_err(RegistryError::from)?;
        Ok(adas_runtime::reply(resolve_response(&resolved)))
    }

    async fn accept_tools(
        &self,
        request: Request<pb::AcceptToolsRequest>,
    ) -> Result<Response<pb::ResolveToolsResponse>, Status> {
        let principal = require_admin(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let slag = slag_of("skill", &request.skill)?;
        let skill = self.skill(&tenant, &slag).await?;
        let resolved = self
            .tools
            .accept(&adas_jobs::tool_request(&skill, &tenant), &request.tools)
            .await
            .map_err(RegistryError::from)?;
        tracing::info!(target: "adas::audit", principal = %principal.name, tenant = %tenant, skill = %slag, tools = ?request.tools, "tool definitions accepted");
        Ok(adas_runtime::reply(resolve_response(&resolved)))
    }

    async fn invalidate_tool_cache(
        &self,
        request: Request<pb::InvalidateToolCacheRequest>,
    ) -> Result<Response<pb::InvalidateToolCacheResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        use pb::invalidate_tool_cache_request::Target;
        let principal = require_admin(&request)?;
        let dropped = match request.into_inner().target {
            Some(Target::Skill(name)) => {
                let slag = slag_of("skill", &name)?;
                let skill = self.skill(&tenant, &slag).await?;
                self.tools
                    .invalidate_skill(&slag, skill.skill.mcp_server.as_deref())
                    .await
                    .map_err(RegistryError::from)?
            }
            // A server no skill or connector of the caller's tenant uses is
            // another tenant's: dropped only by who acts for every tenant,
            // and not found for anyone else (its use is not told either).
            Some(Target::ServerUri(uri)) if !uri.trim().is_empty() => {
                if !principal.acts_for_every_tenant() && !self.tenant_uses(&tenant, &uri).await? {
                    return Err(RegistryError::ServerNotFound(format!(
                        "no skill or connector of this tenant uses the server `{}`",
                        adas_skill::grammar::shown(uri.trim())
                    ))
                    .into());
                }
                self.tools
                    .invalidate_server(&uri)
                    .await
                    .map_err(RegistryError::from)?
            }
            // Deployment-wide only for who acts for every tenant; a tenant's
            // admin drops what its own skills and connectors resolve through.
            Some(Target::All(true)) if principal.acts_for_every_tenant() => self
                .tools
                .invalidate_all()
                .await
                .map_err(RegistryError::from)?,
            Some(Target::All(true)) => self.invalidate_tenant(&tenant).await?,
            Some(Target::ServerUri(_) | Target::All(false)) | None => {
                return Err(RegistryError::InvalidField {
                    field: "target",
                    reason: "set one of skill, server_uri or all=true".into(),
                }
                .into());
            }
        };
        Ok(adas_runtime::reply(pb::InvalidateToolCacheResponse {
            invalidated_entries: i32::try_from(dropped).unwrap_or(i32::MAX),
        }))
    }

    async fn put_connector(
        &self,
        request: Request<pb::PutConnectorRequest>,
    ) -> Result<Response<pb::Connector>, Status> {
        let principal = require_operator(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let connector = request
            .into_inner()
            .connector
            .ok_or(RegistryError::InvalidField {
                field: "connector",
                reason: "required".into(),
            })?;
        let id = connector_id("connector.name", &connector.name)?;
        let url = connector.url.trim().to_owned();
        if url.len() > 2048 {
            return Err(RegistryError::InvalidField {
                field: "connector.url",
                reason: "longer than 2048 bytes".into(),
            }
            .into());
        }
        if let Some(problem) = adas_skill::validate::transport_problem(&url) {
            return Err(RegistryError::InvalidField {
                field: "connector.url",
                reason: problem,
            }
            .into());
        }
        // Decided from the address alone: nothing is contacted here.
        self.catalog
            .check_server(&url)
            .map_err(RegistryError::EgressDenied)?;
        self.tools
            .put_connector(&tenant, &id, &url)
            .await
            .map_err(RegistryError::from)?;
        tracing::info!(target: "adas::audit", principal = %principal.name, tenant = %tenant, connector = %id, url = %url, "connector put");
        Ok(adas_runtime::reply(connector_message(
            adas_tools::Connector {
                id,
                url,
                deployment: false,
            },
        )))
    }

    async fn get_connector(
        &self,
        request: Request<pb::GetConnectorRequest>,
    ) -> Result<Response<pb::Connector>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let id = connector_id("name", &request.get_ref().name)?;
        let connector = self
            .tools
            .connection(&tenant, &id)
            .await
            .map_err(RegistryError::from)?
            .ok_or(RegistryError::ConnectorNotFound(id))?;
        Ok(adas_runtime::reply(connector_message(connector)))
    }

    async fn list_connectors(
        &self,
        request: Request<pb::ListConnectorsRequest>,
    ) -> Result<Response<pb::ListConnectorsResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let connectors = self
            .tools
            .connectors(&tenant)
            .await
            .map_err(RegistryError::from)?;
        Ok(adas_runtime::reply(pb::ListConnectorsResponse {
            connectors: connectors.into_iter().map(connector_message).collect(),
        }))
    }

    async fn delete_connector(
        &self,
        request: Request<pb::DeleteConnectorRequest>,
    ) -> Result<Response<pb::DeleteConnectorResponse>, Status> {
        let principal = require_operator(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let id = connector_id("name", &request.get_ref().name)?;
        if !self
            .tools
            .delete_connector(&tenant, &id)
            .await
            .map_err(RegistryError::from)?
        {
            return Err(RegistryError::ConnectorNotFound(id).into());
        }
        tracing::info!(target: "adas::audit", principal = %principal.name, tenant = %tenant, connector = %id, "connector deleted");
        Ok(adas_runtime::reply(pb::DeleteConnectorResponse {
            name: format!("connectors/{id}"),
        }))
    }
    async fn put_solution(
        &self,
        request: Request<pb::PutSolutionRequest>,
    ) -> Result<Response<pb::Solution>, Status> {
        let principal = require_admin(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let id = Self::solution_id("name", &request.name)?;
        if request.source.len() > adas_skill::solution::MAX_SOLUTION_BYTES {
            return Err(RegistryError::InvalidField {
                field: "source",
                reason: format!(
                    "longer than {} bytes",
                    adas_skill::solution::MAX_SOLUTION_BYTES
                ),
            }
            .into());
        }
        // Parsing is bounded but not free: off the async threads.
        let source = request.source.clone();
        let mut loaded = tokio::task::spawn_blocking(move || {
            adas_skill::solution::load(&source, Format::detect(None, &source))
        })
        .await
        .map_err(|error| RegistryError::Internal(error.to_string()))?;
        if let Some(solution) = &loaded.solution {
            // Parsed once for the positions of the diagnostics added here.
            let positions =
                adas_skill::document::parse(&request.source, Format::detect(None, &request.source))
                    .map(|document| document.positions)
                    .ok();
            let at = |path: &str| {
                positions
                    .as_ref()
                    .map(|positions| positions.find(path))
                    .unwrap_or_default()
            };
            if solution.id != id {
                loaded.diagnostics.push(adas_skill::Diagnostic::error(
                    "id",
                    at("id"),
                    adas_skill::diagnostics::codes::INVALID_VALUE,
                    format!("the document's id `{}` is not `{id}`", solution.id),
                ));
            }
            // Each contract is a promise the consumer's own access policy
            // keeps: checked now against the skills that exist (and again
            // when a job starts on the solution).
            let mut consumers = std::collections::HashMap::new();
            for contract in &solution.security_contracts {
                if let Ok(skill) = self.skill(&tenant, &contract.consumer).await {
                    consumers.insert(contract.consumer.clone(), skill);
                }
            }
            if let Some(positions) = &positions {
                loaded
                    .diagnostics
                    .extend(solution.contract_diagnostics(positions, |slag| {
                        consumers.get(slag).map(|skill| &skill.skill)
                    }));
            }
        }
        if loaded.has_errors() {
            return Err(RegistryError::Document {
                slag: id,
                diagnostics: loaded.diagnostics,
            }
            .into());
        }
        let stored = adas_catalog::solutions::put(
            self.docs.as_ref(),
            &tenant,
            &id,
            &request.source,
            &request.etag,
        )
        .await
        .map_err(|error| RegistryError::Internal(error.to_string()))?;
        if !stored {
            return Err(RegistryError::SolutionEtagMismatch {
                id,
                etag: request.etag,
            }
            .into());
        }
        tracing::info!(target: "adas::audit", principal = %principal.name, tenant = %tenant, solution = %id, "solution put");
        let stored = adas_skill::solution::StoredSolution {
            etag: adas_skill::etag_of(&request.source),
            source: request.source,
            solution: loaded.solution.unwrap_or_default(),
        };
        Ok(adas_runtime::reply(Self::solution_message(
            &id,
            &stored,
            &loaded.diagnostics,
        )))
    }

    async fn get_solution(
        &self,
        request: Request<pb::GetSolutionRequest>,
    ) -> Result<Response<pb::Solution>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let id = Self::solution_id("name", &request.get_ref().name)?;
        let stored = adas_catalog::solutions::get(self.docs.as_ref(), &tenant, &id)
            .await
            .map_err(|error| RegistryError::Internal(error.to_string()))?
            .ok_or_else(|| RegistryError::SolutionNotFound(format!("solutions/{id} not found")))?;
        Ok(adas_runtime::reply(Self::solution_message(
            &id,
            &stored,
            &[],
        )))
    }

    async fn list_solutions(
        &self,
        request: Request<pb::ListSolutionsRequest>,
    ) -> Result<Response<pb::ListSolutionsResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let ids = adas_catalog::solutions::list(self.docs.as_ref(), &tenant)
            .await
            .map_err(|error| RegistryError::Internal(error.to_string()))?;
        let mut solutions = Vec::new();
        for id in ids {
            if let Some(stored) = adas_catalog::solutions::get(self.docs.as_ref(), &tenant, &id)
                .await
                .map_err(|error| RegistryError::Internal(error.to_string()))?
            {
                solutions.push(Self::solution_message(&id, &stored, &[]));
            }
        }
        Ok(adas_runtime::reply(pb::ListSolutionsResponse { solutions }))
    }

    async fn delete_solution(
        &self,
        request: Request<pb::DeleteSolutionRequest>,
    ) -> Result<Response<pb::DeleteSolutionResponse>, Status> {
        let principal = require_admin(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let request = request.into_inner();
        let id = Self::solution_id("name", &request.name)?;
        if !adas_catalog::solutions::delete(self.docs.as_ref(), &tenant, &id, &request.etag)
            .await
            .map_err(|error| RegistryError::Internal(error.to_string()))?
        {
            return Err(RegistryError::SolutionNotFound(format!(
                "solutions/{id} not found (or its etag is not {})",
                request.etag
            ))
            .into());
        }
        tracing::info!(target: "adas::audit", principal = %principal.name, tenant = %tenant, solution = %id, "solution deleted");
        Ok(adas_runtime::reply(pb::DeleteSolutionResponse {
            name: format!("solutions/{id}"),
        }))
    }
}
