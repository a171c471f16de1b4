//! `adas skill test`: a skill's own scenarios on the embedded suite, or an
//! author's conversation file against a running suite.

use crate::*;

use serde_json::Value as Json;

/// The embedded suite a skill's scenarios run on: in memory, its skills'
/// tools served from their examples by mock MCP servers of its own.
struct Embedded {
    client: client::Client,
    stop: tokio::sync::watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Embedded {
    /// The suite, and a mock server per entry of `mocks` (their URLs, in order).
    async fn start(
        mut config: adas_runtime::ServerConfig,
        mocks: &[Vec<adas_demo_mcp::MockTool>],
    ) -> Result<(Self, Vec<String>), String> {
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let mut tasks = Vec::new();
        let mut urls = Vec::new();
        for tools in mocks {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|error| error.to_string())?;
            let address = listener.local_addr().map_err(|error| error.to_string())?;
            urls.push(format!("http://{address}{}", adas_demo_mcp::MCP_PATH));
            // Each mock server exactly, and nothing else of loopback.
            config.mcp_allow.push(address.to_string());
            let mut mock_stop = stopped.clone();
            let serve =
                adas_demo_mcp::DemoMcp::mocked(tools.clone()).serve_http(listener, async move {
                    let _ = mock_stop.wait_for(|stopped| *stopped).await;
                });
            tasks.push(tokio::spawn(async move {
                let _ = serve.await;
            }));
        }
        if let Some(url) = urls.first() {
            config.demo_mcp_url = url.clone();
        }
        let (ready, address) = tokio::sync::oneshot::channel();
        let suite = tokio::spawn(serve_suite(config, None, None, stopped, Some(ready)));
        tasks.push(tokio::spawn(async move {
            let _ = suite.await;
        }));
        let address = address
            .await
            .map_err(|_| "the suite did not start".to_owned())?;
        let client = client::Client::new(&format!("http://{address}"), None)?;
        Ok((
            Self {
                client,
                stop,
                tasks,
            },
            urls,
        ))
    }

    async fn registry(
        &self,
    ) -> Result<
        adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient<
            adas_runtime::auth::AuthChannel,
        >,
        String,
    > {
        let channel = self.client.channel().await.map_err(String::from)?;
        Ok(adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel))
    }

    /// Puts `document` as the skill `slag`: its tools on `mock_url`, else
    /// on its own servers, as written.
    async fn put_skill(
        &self,
        slag: &str,
        document: &Json,
        mock_url: Option<&String>,
    ) -> Result<(), String> {
        let runnable = match mock_url {
            Some(url) => scenarios::on_mock_server(document, url),
            None => document.clone(),
        };
        self.registry()
            .await?
            .put_skill(adas_proto::pb::PutSkillRequest {
                name: format!("skills/{slag}"),
                source: runnable.to_string(),
                ..Default::default()
            })
            .await
            .map_err(|status| format!("{slag}: {}", status.message()))?;
        Ok(())
    }

    async fn stop(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// The embedded suite's configuration (in memory under `root`, quiet).
fn embedded_config(root: &std::path::Path) -> adas_runtime::ServerConfig {
    let mut config = adas_runtime::ServerConfig::local(root.to_path_buf());
    config.log = "error".into();
    init_tracing(config.log_format, &config.log);
    config
}

/// A skill document read from `path` (the slag its file name gives, and
/// the document as JSON), or why not.
fn skill_file(path: &std::path::Path) -> Result<(String, Json), String> {
    let shown = path.display().to_string();
    let source = std::fs::read_to_string(path).map_err(|error| format!("{shown}: {error}"))?;
    let stem = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.split('.').next())
        .unwrap_or("skill")
        .to_ascii_lowercase();
    let document = adas_skill::load_detected(&source, Some(&shown))
        .document
        .map(|document| document.value)
        .ok_or_else(|| format!("{shown} does not load: adas skill validate {shown}"))?;
    Ok((stem, document))
}

/// Prints the outcomes as a PASS/FAIL table and its summary; the number failed.
fn report(outcomes: &[scenarios::Outcome]) -> usize {
    for outcome in outcomes {
        let verdict = if outcome.failure.is_none() {
            "PASS"
        } else {
            "FAIL"
        };
        output::out(&format!(
            "{verdict}\t{}\t{}\tcalled: {}{}",
            outcome.scenario.id,
            outcome.scenario.title,
            if outcome.called.is_empty() {
                "nothing".to_owned()
            } else {
                outcome.called.join(", ")
            },
            outcome
                .failure
                .as_ref()
                .map(|why| format!("\t{why}"))
                .unwrap_or_default()
        ));
        // What was sent, and what the runner said for the user: the
        // author sees whether a value came from the words or the examples.
        for call in &outcome.calls {
            output::out(&format!("\t  {call}"));
        }
        for said in &outcome.said {
            output::out(&format!("\t  said for the user: {said}"));
        }
        for note in &outcome.notes {
            output::out(&format!("\t  note: {note}"));
        }
        if let Some(words) = &outcome.scenario.in_words {
            output::out(&format!("\t  expected, in words (not asserted): {words}"));
        }
    }
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
    output::out(&format!(
        "{} scenario(s): {} passed, {failed} failed",
        outcomes.len(),
        outcomes.len() - failed
    ));
    failed
}

/// Writes the JUnit report, then turns `failed` into the command's verdict.
fn verdict(
    junit: Option<&std::path::Path>,
    name: &str,
    outcomes: &[scenarios::Outcome],
    took: std::time::Duration,
    failed: usize,
) -> Result<(), String> {
    if let Some(junit) = junit {
        std::fs::write(junit, scenarios::junit(name, outcomes, took))
            .map_err(|error| format!("{}: {error}", junit.display()))?;
    }
    if failed > 0 {
        return Err(format!("{failed} scenario(s) failed"));
    }
    Ok(())
}

/// `adas skill test`: the skill's scenarios on the embedded suite with its
/// tools mocked from their examples (see `scenarios.rs`).
pub(crate) fn skill_test(
    target: &str,
    junit: Option<&std::path::Path>,
    server: &client::Client,
) -> ExitCode {
    let memory_root = std::env::temp_dir().join(format!("adas-skill-test-{}", std::process::id()));
    let config = embedded_config(&memory_root);
    let target = target.to_owned();
    let server = server.clone();
    let junit = junit.map(std::path::Path::to_path_buf);
    let code = run_blocking(async move {
        // The document: a file, or the server's skill of that slag.
        let path = std::path::Path::new(&target);
        let (slag, document) = if path.is_file() {
            skill_file(path)?
        } else {
            use adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient;
            let channel = server.channel().await.map_err(String::from)?;
            let skill = SkillRegistryServiceClient::new(channel)
                .get_skill(adas_proto::pb::GetSkillRequest {
                    name: format!("skills/{target}"),
                })
                .await
                .map_err(|status| format!("{target}: {}", status.message()))?
                .into_inner();
            let document = adas_skill::load_detected(&skill.source, Some(&target))
                .document
                .map(|document| document.value)
                .ok_or_else(|| format!("{target} does not load: adas skill validate {target}"))?;
            (target.clone(), document)
        };
        let mocks = scenarios::mocks(&document);
        let (suite, urls) = Embedded::start(config, std::slice::from_ref(&mocks)).await?;
        let outcome = async {
            suite.put_skill(&slag, &document, urls.first()).await?;
            let started = std::time::Instant::now();
            let mut outcomes = Vec::new();
            for scenario in scenarios::scenarios(&document) {
                match scenario {
                    Ok(scenario) => outcomes.push(
                        scenarios::run(&suite.client, scenarios::Within::Skill(&slag), scenario)
                            .await,
                    ),
                    Err(problem) => output::out(&format!("skipped\t{problem}")),
                }
            }
            for outcome in &mut outcomes {
                outcome.notes = scenarios::unmatched(&mocks, &outcome.made);
            }
            let failed = report(&outcomes);
            if outcomes.iter().any(|outcome| {
                outcome
                    .failure
                    .as_ref()
                    .is_some_and(|why| why.contains("needs the grant"))
            }) {
                output::out(&format!(
                    "note: {target}'s tools need grants another skill issues: run its scenarios in their solution, `adas solution test SOLUTION.json SKILL_FILE…`"
                ));
            }
            verdict(junit.as_deref(), &slag, &outcomes, started.elapsed(), failed)
        }
        .await;
        suite.stop().await;
        outcome
    });
    let _ = std::fs::remove_dir_all(&memory_root);
    code
}

/// Where `adas solution test` calls the skills' tools.
pub(crate) struct Servers {
    /// `ID=URL`: each skill's connection ID served from URL — the tools run
    /// on real servers, nothing is mocked. Empty: mocked from examples.
    pub connectors: Vec<String>,
    /// Egress allowed to those servers (hosts, `host:port`, CIDRs).
    pub mcp_allow: Vec<String>,
}

/// `adas solution test SOLUTION SKILL_FILE…`: every skill's scenarios as
/// conversations of the solution on the embedded suite, its tools mocked
/// from their examples or on the servers `servers` names; a skill that is
/// not the solution's entry is reached after the entry's first scenario
/// that hands the user over (by words).
pub(crate) fn solution_test(
    solution_file: &std::path::Path,
    skill_files: &[std::path::PathBuf],
    servers: Servers,
    junit: Option<&std::path::Path>,
) -> ExitCode {
    let memory_root =
        std::env::temp_dir().join(format!("adas-solution-test-{}", std::process::id()));
    let mut config = embedded_config(&memory_root);
    let live = !servers.connectors.is_empty();
    config.connectors = servers.connectors;
    config.mcp_allow = servers.mcp_allow;
    let solution_file = solution_file.to_path_buf();
    let skill_files = skill_files.to_vec();
    let junit = junit.map(std::path::Path::to_path_buf);
    let code = run_blocking(async move {
        let shown = solution_file.display().to_string();
        let (source, solution, entry) = load_solution(&solution_file, &shown)?;
        let skills = solution_skills(&solution, &skill_files, &shown)?;
        let mocks: Vec<Vec<adas_demo_mcp::MockTool>> = skills
            .iter()
            .filter(|_| !live)
            .map(|(_, document)| scenarios::mocks(document))
            .collect();
        let (suite, urls) = Embedded::start(config, &mocks).await?;
        let outcome = async {
            for (at, (slag, document)) in skills.iter().enumerate() {
                suite.put_skill(slag, document, urls.get(at)).await?;
            }
            suite
                .registry()
                .await?
                .put_solution(adas_proto::pb::PutSolutionRequest {
                    name: format!("solutions/{}", solution.id),
                    source: source.clone(),
                    etag: String::new(),
                })
                .await
                .map_err(|status| format!("{shown}: {}", status.message()))?;
            let started = std::time::Instant::now();
            let entry_scenarios: Vec<scenarios::Scenario> = skills
                .iter()
                .filter(|(slag, _)| *slag == entry)
                .flat_map(|(_, document)| scenarios::scenarios(document))
                .filter_map(Result::ok)
                .collect();
            let mut outcomes = Vec::new();
            for (slag, document) in &skills {
                // The words that hand the user over: the entry's first
                // scenario whose conversation ends holding grants.
                let mut prelude = None;
                if *slag != entry {
                    for candidate in &entry_scenarios {
                        if scenarios::hands_over(&suite.client, &solution.id, candidate)
                            .await
                        {
                            prelude = Some(candidate);
                            break;
                        }
                    }
                    if let Some(prelude) = prelude {
                        output::out(&format!("{slag}: reached after \"{}\"", prelude.goal));
                    } else {
                        output::out(&format!(
                            "{slag}: no scenario of {entry} hands the user over; its scenarios run without"
                        ));
                    }
                }
                for scenario in scenarios::scenarios(document) {
                    match scenario {
                        Ok(scenario) => {
                            let within = scenarios::Within::Solution {
                                id: &solution.id,
                                slag,
                                prelude,
                            };
                            outcomes.push(
                                scenarios::run(&suite.client, within, scenario).await,
                            );
                        }
                        Err(problem) => output::out(&format!("skipped\t{slag}: {problem}")),
                    }
                }
            }
            let every_mock: Vec<adas_demo_mcp::MockTool> = mocks.iter().flatten().cloned().collect();
            for outcome in &mut outcomes {
                outcome.notes = scenarios::unmatched(&every_mock, &outcome.made);
            }
            let failed = report(&outcomes);
            verdict(junit.as_deref(), &solution.id, &outcomes, started.elapsed(), failed)
        }
        .await;
        suite.stop().await;
        outcome
    });
    let _ = std::fs::remove_dir_all(&memory_root);
    code
}

/// The solution in `file` (`shown` as the user named it), its source, and
/// the skill its conversations begin at (the `api` channel's, else the
/// first route's).
fn load_solution(
    file: &std::path::Path,
    shown: &str,
) -> Result<(String, adas_skill::solution::Solution, String), String> {
    let source = std::fs::read_to_string(file).map_err(|error| format!("{shown}: {error}"))?;
    let loaded =
        adas_skill::solution::load(&source, adas_skill::Format::detect(Some(shown), &source));
    for diagnostic in &loaded.diagnostics {
        output::out(&diagnostic.render(shown));
    }
    let failed = loaded.has_errors();
    let solution = loaded
        .solution
        .filter(|_| !failed)
        .ok_or_else(|| format!("{shown} does not load"))?;
    let entry = solution
        .entry("api")
        .or_else(|| {
            solution
                .routing
                .values()
                .next()
                .map(|route| route.default_skill.as_str())
        })
        .ok_or_else(|| format!("{shown}: no `routing` names the skill a conversation begins at"))?
        .to_owned();
    Ok((source, solution, entry))
}

/// Each skill file as the solution's skill its `id` (else its file name)
/// names, with its document.
fn solution_skills(
    solution: &adas_skill::solution::Solution,
    files: &[std::path::PathBuf],
    shown: &str,
) -> Result<Vec<(String, serde_json::Value)>, String> {
    // Each file is the solution's skill its `id` (else its file name) names.
    let mut skills = Vec::new();
    for file in files {
        let (stem, document) = skill_file(file)?;
        let slag = solution
            .member(document["id"].as_str().unwrap_or_default(), &stem)
            .ok_or_else(|| {
                format!(
                    "{}: no skill of {shown} (it lists: {})",
                    file.display(),
                    solution
                        .skills
                        .iter()
                        .map(|skill| skill.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?
            .to_owned();
        skills.push((slag, document));
    }
    Ok(skills)
}

/// `adas skill test SLAG FILE.conv`: the file's conversations against the
/// suite at `server`, one line per conversation and a summary.
pub(crate) fn conversation_test(
    slag: &str,
    file: &std::path::Path,
    (junit, json): (Option<&std::path::Path>, Option<&std::path::Path>),
    min_correct: f64,
    server: &client::Client,
) -> ExitCode {
    let shown = file.display().to_string();
    let parsed = std::fs::read_to_string(file)
        .map_err(|error| format!("{shown}: {error}"))
        .and_then(|text| conversations::parse(&text).map_err(|why| format!("{shown}:{why}")));
    let parsed = match parsed {
        Ok(parsed) => parsed,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    if !(0.0..=1.0).contains(&min_correct) {
        eprintln!("error: --min-correct {min_correct}: expected a share from 0 to 1");
        return ExitCode::from(2);
    }
    let slag = slag.to_owned();
    let server = server.clone();
    run_blocking(async move {
        let started = std::time::Instant::now();
        let measures = conversations::run_file(&server, &slag, &parsed).await?;
        for measure in &measures {
            let verdict = if measure.passed() { "PASS" } else { "FAIL" };
            let mut line = format!("{verdict}\t{}\tturns: {}", measure.title, measure.turns);
            for problem in &measure.problems {
                line.push_str(&format!("\t{problem}"));
            }
            for (tool, arguments) in &measure.wrong {
                line.push_str(&format!(
                    "\twrong side-effecting call: {tool}{}",
                    serde_json::Value::Object(arguments.clone())
                ));
            }
            output::out(&line);
        }
        let correct: Vec<&conversations::Measures> = measures
            .iter()
            .filter(|measure| measure.problems.is_empty())
            .collect();
        let wrong: usize = measures.iter().map(|measure| measure.wrong.len()).sum();
        let share = correct.len() as f64 / measures.len().max(1) as f64;
        let turns = correct
            .iter()
            .map(|measure| f64::from(measure.turns))
            .sum::<f64>()
            / correct.len().max(1) as f64;
        output::out(&format!(
            "{} conversation(s): {} correct ({:.0}%), mean turns {turns:.1}, {} clarification(s), {wrong} wrong side-effecting call(s)",
            measures.len(),
            correct.len(),
            share * 100.0,
            measures
                .iter()
                .map(|measure| measure.clarifications)
                .sum::<u32>()
        ));
        if let Some(path) = json {
            let text = serde_json::to_string_pretty(&measures).unwrap_or_default();
            std::fs::write(path, text).map_err(|error| format!("{}: {error}", path.display()))?;
        }
        if let Some(path) = junit {
            std::fs::write(
                path,
                conversations::junit(&slag, &measures, started.elapsed()),
            )
            .map_err(|error| format!("{}: {error}", path.display()))?;
        }
        if wrong > 0 {
            return Err(format!("{wrong} wrong side-effecting call(s)"));
        }
        if share < min_correct {
            return Err(format!(
                "{} of {} correct, below --min-correct {min_correct}",
                correct.len(),
                measures.len()
            ));
        }
        Ok(())
    })
}
