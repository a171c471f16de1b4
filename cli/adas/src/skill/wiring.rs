//! What a skill is wired to, from the command line: the tenant's connectors
//! (`adas skill connector`) and solutions (`adas skill solution`).

use super::*;

/// `adas connector`: which MCP server a connection id of skill exports
/// (`tools[].source.connection_id`) runs on, for the caller's tenant.
#[derive(Debug, Subcommand)]
pub enum ConnectorCommand {
    /// Map a connection id to an MCP server (PutConnector; admin or operator).
    Put {
        /// The connection id, e.g. `gcal-mcp`.
        id: String,
        /// The server, `http(s)://host:port/path` or `stdio:NAME`.
        #[arg(long)]
        url: String,
    },
    /// The server a connection id maps to (GetConnector).
    Get {
        /// The connection id.
        id: String,
    },
    /// Every connector the tenant sees, its own and the deployment's.
    List,
    /// Remove the tenant's mapping of a connection id (DeleteConnector).
    Delete {
        /// The connection id.
        id: String,
    },
}

pub(super) async fn connector(
    command: ConnectorCommand,
    registry: &mut SkillRegistryServiceClient<Channel>,
    output: Format,
) -> Result<(), Failure> {
    let shown = |connector: &pb::Connector| {
        let origin = if connector.deployment {
            " (deployment)"
        } else {
            ""
        };
        format!("{}\t{}{origin}", connector.name, connector.url)
    };
    let one = match command {
        ConnectorCommand::Put { id, url } => {
            registry
                .put_connector(pb::PutConnectorRequest {
                    connector: Some(pb::Connector {
                        name: format!("connectors/{id}"),
                        url,
                        deployment: false,
                    }),
                })
                .await
        }
        ConnectorCommand::Get { id } => {
            registry
                .get_connector(pb::GetConnectorRequest {
                    name: format!("connectors/{id}"),
                })
                .await
        }
        ConnectorCommand::List => {
            let list = registry
                .list_connectors(pb::ListConnectorsRequest {})
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            if output.is_data() {
                print_value(&json(&list, "adas.v1.ListConnectorsResponse")?, output);
            } else {
                for connector in &list.connectors {
                    out(&shown(connector));
                }
            }
            return Ok(());
        }
        ConnectorCommand::Delete { id } => {
            let deleted = registry
                .delete_connector(pb::DeleteConnectorRequest {
                    name: format!("connectors/{id}"),
                })
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            if output.is_data() {
                print_value(&json(&deleted, "adas.v1.DeleteConnectorResponse")?, output);
            } else {
                out(&format!("{} deleted", deleted.name));
            }
            return Ok(());
        }
    };
    let connector = one
        .map_err(|status| Failure::from_status(&status))?
        .into_inner();
    if output.is_data() {
        print_value(&json(&connector, "adas.v1.Connector")?, output);
    } else {
        out(&shown(&connector));
    }
    Ok(())
}

/// `adas solution`: skills of your tenant working as one agent.
#[derive(Debug, Subcommand)]
pub enum SolutionCommand {
    /// Check a solution offline: its structure, grants and handoffs, and —
    /// for the skills whose files are given — each skill, that it is one of
    /// the solution's, and the security contracts it must keep. Exits 1 on
    /// an error.
    Validate {
        /// The solution document (`*.solution.json` or YAML).
        file: PathBuf,
        /// Its skills' files (each matched by its `id`, else its file name).
        skills: Vec<PathBuf>,
        /// List each of the Builder's bookkeeping fields.
        #[arg(long)]
        verbose: bool,
        /// Value of `${ADAS_DEMO_MCP_URL}` (the variables a server expands).
        #[arg(long, env = "ADAS_DEMO_MCP_URL", default_value = DEFAULT_DEMO_MCP_URL)]
        demo_mcp_url: String,
    },
    /// Validate and store a solution document (PutSolution, admin).
    Put {
        /// The document (`*.solution.json` or YAML).
        file: PathBuf,
        /// Its id; default: the document's `id`.
        #[arg(long)]
        name: Option<String>,
        /// Refuse the write unless the stored solution still has this etag.
        #[arg(long)]
        etag: Option<String>,
    },
    /// Show a solution (GetSolution).
    Get {
        /// The solution id.
        id: String,
    },
    /// List the tenant's solutions.
    List,
    /// Delete a solution (DeleteSolution, admin).
    Delete {
        /// The solution id.
        id: String,
    },
    /// Run every skill's `scenarios` as conversations of the solution on the
    /// embedded suite, their tools answered from `tools[].mock.examples` (no
    /// MCP server needed). A skill the conversation does not begin at is
    /// reached by words: first the entry skill's first scenario that hands
    /// the user over. Exits 1 on a failure.
    Test {
        /// The solution document (`*.solution.json` or YAML).
        file: PathBuf,
        /// Its skills' files (each matched by its `id`, else its file name).
        #[arg(required = true)]
        skills: Vec<PathBuf>,
        /// Run the tools on real servers instead of mocks: the skills'
        /// connection ID is served from URL (`ID=URL`; repeat).
        #[arg(long = "connector")]
        connectors: Vec<String>,
        /// Egress allowed to those servers (loopback is refused unless
        /// listed: `127.0.0.1`, `host:port`, a CIDR; repeat).
        #[arg(long = "mcp-allow")]
        mcp_allow: Vec<String>,
        /// Relative dates ("tomorrow") count from this day (YYYY-MM-DD).
        #[arg(long)]
        today: Option<jiff::civil::Date>,
        /// Also write a JUnit XML report here (for CI).
        #[arg(long)]
        junit: Option<PathBuf>,
    },
}

pub(super) async fn solution(
    command: SolutionCommand,
    registry: &mut SkillRegistryServiceClient<Channel>,
    output: Format,
) -> Result<(), Failure> {
    let shown = |solution: &pb::Solution| {
        format!(
            "{}\t{}\t{}",
            solution.name,
            solution.etag,
            solution.skills.join(",")
        )
    };
    let one = match command {
        SolutionCommand::Test { .. } | SolutionCommand::Validate { .. } => {
            unreachable!("runs on its own")
        }
        SolutionCommand::Put { file, name, etag } => {
            let path = file.display().to_string();
            let source = std::fs::read_to_string(&file)
                .map_err(|error| Failure::usage(format!("{path}: cannot read: {error}")))?;
            let id = match name {
                Some(name) => name,
                None => adas_skill::solution::load(
                    &source,
                    DocumentFormat::detect(Some(&path), &source),
                )
                .solution
                .map(|solution| solution.id)
                .filter(|id| !id.is_empty())
                .ok_or_else(|| Failure::usage(format!("{path}: no `id`; pass --name")))?,
            };
            let put = registry
                .put_solution(pb::PutSolutionRequest {
                    name: format!("solutions/{id}"),
                    source,
                    etag: etag.unwrap_or_default(),
                })
                .await;
            if let Err(status) = &put {
                let violations = status
                    .get_details_bad_request()
                    .map(|bad| bad.field_violations)
                    .unwrap_or_default();
                for violation in &violations {
                    out(&format!(
                        "{path}: {}: {}",
                        violation.field, violation.description
                    ));
                }
            }
            put
        }
        SolutionCommand::Get { id } => {
            registry
                .get_solution(pb::GetSolutionRequest {
                    name: format!("solutions/{id}"),
                })
                .await
        }
        SolutionCommand::List => {
            let list = registry
                .list_solutions(pb::ListSolutionsRequest {})
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            if output.is_data() {
                print_value(&json(&list, "adas.v1.ListSolutionsResponse")?, output);
            } else {
                for solution in &list.solutions {
                    out(&shown(solution));
                }
            }
            return Ok(());
        }
        SolutionCommand::Delete { id } => {
            let deleted = registry
                .delete_solution(pb::DeleteSolutionRequest {
                    name: format!("solutions/{id}"),
                    etag: String::new(),
                })
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            if output.is_data() {
                print_value(&json(&deleted, "adas.v1.DeleteSolutionResponse")?, output);
            } else {
                out(&format!("{} deleted", deleted.name));
            }
            return Ok(());
        }
    };
    let solution = one
        .map_err(|status| Failure::from_status(&status))?
        .into_inner();
    if output.is_data() {
        print_value(&json(&solution, "adas.v1.Solution")?, output);
    } else {
        out(&shown(&solution));
    }
    Ok(())
}
