//! `adas skill test`: a skill's own scenarios on the embedded suite, or an
//! author's conversation file against a running suite.

use crate::*;

/// `adas skill test`: the skill's scenarios on the embedded suite with its
/// tools mocked from their examples (see `scenarios.rs`).
pub(crate) fn skill_test(
    target: &str,
    junit: Option<&std::path::Path>,
    server: &client::Client,
) -> ExitCode {
    let memory_root = std::env::temp_dir().join(format!("adas-skill-test-{}", std::process::id()));
    let mut config = adas_runtime::ServerConfig::local(memory_root.clone());
    config.log = "error".into();
    config.templates_dir = templates_dir();
    init_tracing(config.log_format, &config.log);
    let target = target.to_owned();
    let server = server.clone();
    let junit = junit.map(std::path::Path::to_path_buf);
    let code = run_blocking(async move {
        let fail = |why: String| why;
        // The document: a file, or the server's skill of that slag.
        let path = std::path::Path::new(&target);
        let (slag, source) = if path.is_file() {
            let source = std::fs::read_to_string(path)
                .map_err(|error| fail(format!("{target}: {error}")))?;
            let stem = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.split('.').next())
                .unwrap_or("skill")
                .to_ascii_lowercase();
            (stem, source)
        } else {
            use adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient;
            let channel = server.channel().await.map_err(String::from)?;
            let skill = SkillRegistryServiceClient::new(channel)
                .get_skill(adas_proto::pb::GetSkillRequest {
                    name: format!("skills/{target}"),
                })
                .await
                .map_err(|status| fail(format!("{target}: {}", status.message())))?
                .into_inner();
            (target.clone(), skill.source)
        };
        let loaded = adas_skill::load_detected(&source, Some(&target));
        let Some(document) = loaded.document.map(|document| document.value) else {
            return Err(fail(format!(
                "{target} does not load: adas skill validate {target}"
            )));
        };
        let mocks = scenarios::mocks(&document);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|error| fail(error.to_string()))?;
        let mock_url = format!(
            "http://{}{}",
            listener
                .local_addr()
                .map_err(|error| fail(error.to_string()))?,
            adas_demo_mcp::MCP_PATH
        );
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let mut mock_stop = stopped.clone();
        let mock = tokio::spawn(adas_demo_mcp::DemoMcp::mocked(mocks.clone()).serve_http(
            listener,
            async move {
                let _ = mock_stop.wait_for(|stopped| *stopped).await;
            },
        ));
        config.demo_mcp_url = mock_url.clone();
        let (ready, address) = tokio::sync::oneshot::channel();
        let suite = tokio::spawn(serve_suite(config, None, None, stopped, Some(ready)));
        let address = address
            .await
            .map_err(|_| fail("the suite did not start".into()))?;
        let client = client::Client::new(&format!("http://{address}"), None).map_err(fail)?;
        let outcome = async {
            use adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient;
            let runnable = scenarios::on_mock_server(&document, &mock_url);
            SkillRegistryServiceClient::new(client.channel().await.map_err(String::from)?)
                .put_skill(adas_proto::pb::PutSkillRequest {
                    name: format!("skills/{slag}"),
                    source: runnable.to_string(),
                    ..Default::default()
                })
                .await
                .map_err(|status| fail(format!("{target}: {}", status.message())))?;
            let started = std::time::Instant::now();
            let mut outcomes = Vec::new();
            for scenario in scenarios::scenarios(&document) {
                match scenario {
                    Ok(scenario) => {
                        outcomes.push(scenarios::run(&client, &slag, &mocks, scenario).await)
                    }
                    Err(problem) => output::out(&format!("skipped\t{problem}")),
                }
            }
            for outcome in &outcomes {
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
            }
            let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
            output::out(&format!(
                "{} scenario(s): {} passed, {failed} failed",
                outcomes.len(),
                outcomes.len() - failed
            ));
            if let Some(junit) = &junit {
                std::fs::write(junit, scenarios::junit(&slag, &outcomes, started.elapsed()))
                    .map_err(|error| fail(format!("{}: {error}", junit.display())))?;
            }
            if failed > 0 {
                return Err(fail(format!("{failed} scenario(s) failed")));
            }
            Ok(())
        }
        .await;
        let _ = stop.send(true);
        let _ = suite.await;
        let _ = mock.await;
        outcome
    });
    let _ = std::fs::remove_dir_all(&memory_root);
    code
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
