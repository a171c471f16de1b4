//! The scenarios: the job serially and concurrently (a, b, c), ResolveTools
//! (d), CheckToolCall (e), paused jobs (f) and ListJobs pages (g).

use super::*;

/// The pause before each call of the spaced MCP floors: about what a job
/// spends between its calls.
pub(super) const CALL_GAP: Duration = Duration::from_millis(1);

/// A goal of the bench skill that asks for the order before any call.
const FIRST_ASK_GOAL: &str = "I'd like a refund";

/// Starts one job of the bench skill on `goal`.
pub(super) async fn start_bench_job(
    orchestrator: &mut OrchestratorClient,
    goal: &str,
) -> Result<pb::Job> {
    let request = pb::StartJobRequest {
        skill: SKILL.into(),
        goal: goal.into(),
        ..Default::default()
    };
    Ok(orchestrator.start_job(request).await?.into_inner())
}

/// Start → paused → answer → completed, observed through WatchJob. Returns the
/// whole latency and the pause → resume part (answer sent → first event after it).
pub(super) async fn one_job(suite: &Suite) -> Result<(Duration, Duration)> {
    one_job_via(
        suite.orchestrator.clone(),
        suite.dal_agent.clone(),
        Duration::ZERO,
    )
    .await
}

/// [`one_job`] through this orchestrator and dal-agent, answering `think`
/// after the job paused.
pub(super) async fn one_job_via(
    orchestrator: Channel,
    dal: Channel,
    think: Duration,
) -> Result<(Duration, Duration)> {
    // Offering gzip, as most generated clients do by default (grpcio,
    // grpc-java): what the suite then spends on compression is in the figures.
    let gzip = tonic::codec::CompressionEncoding::Gzip;
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(orchestrator)
            .accept_compressed(gzip);
    let mut dal =
        pb::dal_agent_service_client::DalAgentServiceClient::new(dal).accept_compressed(gzip);
    let started = Instant::now();
    let job = start_bench_job(&mut orchestrator, GOAL).await?;
    let mut events = orchestrator
        .watch_job(pb::WatchJobRequest {
            name: job.name.clone(),
            after_event_id: String::new(),
        })
        .await?
        .into_inner();
    let mut answered: Option<Instant> = None;
    let mut resume = Duration::ZERO;
    while let Some(event) = events.message().await? {
        let kind =
            pb::JobEventType::try_from(event.r#type).unwrap_or(pb::JobEventType::Unspecified);
        match kind {
            pb::JobEventType::Paused if answered.is_none() => {
                // The ask's id rides on the event: a watcher answers without
                // reading the job.
                let correlation_id = event
                    .data
                    .as_ref()
                    .and_then(|data| data.fields.get("correlation_id"))
                    .and_then(|value| match &value.kind {
                        Some(prost_types::value::Kind::StringValue(id)) => Some(id.clone()),
                        _ => None,
                    })
                    .ok_or("a paused event without the ask's correlation_id")?;
                if !think.is_zero() {
                    tokio::time::sleep(think).await;
                }
                let sent = Instant::now();
                dal.submit_input(pb::SubmitInputRequest {
                    job: job.name.clone(),
                    correlation_id,
                    fields: [("amount".to_owned(), number(25.0))].into(),
                    request_id: String::new(),
                })
                .await?;
                answered = Some(sent);
            }
            pb::JobEventType::Resumed => {}
            pb::JobEventType::Completed => {
                if answered.is_none() {
                    return Err("the job completed without asking".into());
                }
                let done = started.elapsed();
                // The stream's end (its status) follows at once. Dropped here
                // instead, the stream is reset while that end may still be on
                // its way; after 1,024 such late frames the client's h2 closes
                // the connection (e2e/tests/watch.rs).
                while events.message().await?.is_some() {}
                return Ok((done, resume));
            }
            pb::JobEventType::Failed | pb::JobEventType::Cancelled => {
                let failed = orchestrator
                    .get_job(pb::GetJobRequest {
                        name: job.name.clone(),
                    })
                    .await?
                    .into_inner();
                return Err(format!("job {} ended {kind:?}: {:?}", job.name, failed.error).into());
            }
            pb::JobEventType::Paused => return Err(format!("job {} paused twice", job.name).into()),
            _ => {
                if let Some(sent) = answered
                    && resume.is_zero()
                {
                    resume = sent.elapsed();
                }
            }
        }
    }
    Err(format!("the event stream of {} ended before the job did", job.name).into())
}

pub(super) async fn serial_jobs(
    suite: &Suite,
    redis: &RedisServer,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let replies_before = redis_info(redis, "total_writes_processed");
    let commands_before = redis_commands(redis);
    let (read_before, written_before) = (
        redis_info(redis, "total_net_output_bytes"),
        redis_info(redis, "total_net_input_bytes"),
    );
    let trips_before = suite.counters(ROUND_TRIPS).await;
    let hops_before = suite.counters(HOPS).await;
    let mut latency = Sample::default();
    let mut resume = Sample::default();
    for _ in 0..sizes.serial_jobs {
        let (whole, resumed) = one_job(suite).await?;
        latency.push(whole);
        resume.push(resumed);
    }
    let jobs = sizes.serial_jobs as f64;
    figures.record("(a) job p50", "µs", latency.percentile(0.5));
    figures.record("(a) job p99", "µs", latency.percentile(0.99));
    let trips_after = suite.counters(ROUND_TRIPS).await;
    let hops_after = suite.counters(HOPS).await;
    let per_job = |before: &[(&str, u64)], after: &[(&str, u64)]| -> Vec<(String, f64)> {
        before
            .iter()
            .zip(after)
            .map(|((process, old), (_, new))| ((*process).to_owned(), (new - old) as f64 / jobs))
            .collect()
    };
    let trips = per_job(&trips_before, &trips_after);
    let hops = per_job(&hops_before, &hops_after);
    figures.record(
        "(a) redis trips/job",
        "trips",
        trips.iter().map(|(_, n)| n).sum(),
    );
    // Cross-check from Redis' side: each reply written to a client is one round
    // trip (a pipeline's replies go out together); the bench's INFO is subtracted.
    figures.record(
        "(a) redis replies/job",
        "trips",
        (redis_info(redis, "total_writes_processed") - replies_before - 1.0) / jobs,
    );
    // Bytes the suite read from Redis and wrote to it (the INFO replies of the
    // bench itself are a few KiB over all the jobs).
    figures.record(
        "(a) redis bytes read/job",
        "bytes",
        (redis_info(redis, "total_net_output_bytes") - read_before) / jobs,
    );
    figures.record(
        "(a) redis bytes written/job",
        "bytes",
        (redis_info(redis, "total_net_input_bytes") - written_before) / jobs,
    );
    let commands_after = redis_commands(redis);
    let mut by_command: Vec<(String, f64)> = commands_after
        .iter()
        .map(|(name, calls)| {
            let before = commands_before.get(name).copied().unwrap_or(0.0);
            (name.clone(), (calls - before) / jobs)
        })
        .filter(|(name, per_job)| *per_job > 0.0 && name != "INFO")
        .collect();
    by_command.sort_by(|a, b| b.1.total_cmp(&a.1));
    figures.record(
        "(a) redis commands/job",
        "cmds",
        by_command.iter().map(|(_, n)| n).sum(),
    );
    for (name, per_job) in by_command {
        figures.record(&format!("    {name}/job"), "cmds", per_job);
    }
    figures.record(
        "(a) gRPC hops/job",
        "hops",
        hops.iter().map(|(_, n)| n).sum(),
    );
    // Where they happen, when the services run apart.
    if trips.len() > 1 {
        for ((process, trips), (_, hops)) in trips.iter().zip(&hops) {
            figures.record(&format!("    trips/job in {process}"), "trips", *trips);
            figures.record(&format!("    hops/job served by {process}"), "hops", *hops);
        }
    }
    figures.record("(c) pause→resume p50", "µs", resume.percentile(0.5));
    Ok(())
}

pub(super) async fn throughput(
    suite: &Arc<Suite>,
    redis: &RedisServer,
    redis_pid: u32,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    // The closed loops (answers sent at once: every level saturates the
    // machine from c=16 on), then the paced one.
    let levels = sizes
        .concurrency
        .iter()
        .map(|&level| (level, Duration::ZERO))
        .chain([sizes.paced]);
    for (level, think) in levels {
        let jobs = sizes.jobs_per_level.max(level);
        let label = if think.is_zero() {
            format!("c={level}")
        } else {
            format!("c={level} answering in {} ms", think.as_millis())
        };
        let pids = suite.pids();
        let cpu_before = cpu_of(&pids);
        let wakeups_before = wakeups_of(&pids);
        let each_before: Vec<f64> = pids.iter().map(|pid| cpu_seconds(*pid)).collect();
        let tools_before = cpu_seconds(suite.tool_server_pid());
        let redis_cpu_before = cpu_seconds(redis_pid);
        let _ = redis;
        let started = Instant::now();
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for client in 0..level {
            let suite = suite.clone();
            let next = next.clone();
            tasks.push(tokio::spawn(async move {
                // Paced clients do not move in step, as users do not: their
                // starts are spread over one answer time, and each answer
                // takes 0.5–1.5 of it (a golden-ratio sequence, the same in
                // every run). Clients that all answered at once would make
                // waves that saturate the machine however light the load.
                tokio::time::sleep(think * client as u32 / level as u32).await;
                let mut resumes = Vec::new();
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= jobs {
                        break;
                    }
                    let spread = 0.5 + (n as f64 * 0.618_033_988_749_895).fract();
                    let answer_in = think.mul_f64(spread);
                    resumes.push(
                        one_job_via(
                            suite.orchestrator.clone(),
                            suite.dal_agent.clone(),
                            answer_in,
                        )
                        .await?
                        .1,
                    );
                }
                Ok::<_, Error>(resumes)
            }));
        }
        let mut resume = Sample::default();
        for task in tasks {
            for sample in task.await?? {
                resume.push(sample);
            }
        }
        let wall = started.elapsed().as_secs_f64();
        // Every reading of the window taken at its end, before anything is
        // recorded: the share below is of one window, not of medians of
        // different repetitions.
        let suite_cpu = cpu_of(&pids) - cpu_before;
        let tools_cpu = cpu_seconds(suite.tool_server_pid()) - tools_before;
        let redis_cpu = cpu_seconds(redis_pid) - redis_cpu_before;
        figures.record(
            &format!("(b) cpu share at {label}"),
            "%",
            (suite_cpu + tools_cpu + redis_cpu) * 100.0 / (wall * machine_cores()),
        );
        figures.record(
            &format!("(b) jobs/s at {label}"),
            "jobs/s",
            jobs as f64 / wall,
        );
        // A resumed job is claimed before new work (its own lane): under load
        // the answer → next event time is what a user waits after replying.
        figures.record(
            &format!("(b) pause→resume p50 at {label}"),
            "µs",
            resume.percentile(0.5),
        );
        figures.record(
            &format!("(b) pause→resume p99 at {label}"),
            "µs",
            resume.percentile(0.99),
        );
        figures.record(
            &format!("(b) suite cpu/job at {label}"),
            "µs",
            suite_cpu * 1e6 / jobs as f64,
        );
        figures.record(
            &format!("(b) suite thread wake-ups/job at {label}"),
            "wakes",
            (wakeups_of(&pids) - wakeups_before) / jobs as f64,
        );
        // Per process when the services run apart (metrics follow the pids' order).
        if pids.len() > 1 {
            for ((pid, before), (process, _)) in pids.iter().zip(&each_before).zip(&suite.metrics) {
                figures.record(
                    &format!("    cpu/job in {process} at {label}"),
                    "µs",
                    (cpu_seconds(*pid) - before) * 1e6 / jobs as f64,
                );
            }
        }
        figures.record(
            &format!("(b) tool server cpu/job at {label}"),
            "µs",
            tools_cpu * 1e6 / jobs as f64,
        );
        figures.record(
            &format!("(b) redis cpu/job at {label}"),
            "µs",
            redis_cpu * 1e6 / jobs as f64,
        );
    }
    Ok(())
}

pub(super) async fn resolve_tools(
    suite: &Suite,
    store: &Arc<RedisStore>,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let mut registry =
        pb::skill_registry_service_client::SkillRegistryServiceClient::new(suite.registry.clone());
    let request = || pb::ResolveToolsRequest {
        skill: SKILL.into(),
    };
    let first = registry.resolve_tools(request()).await?.into_inner();
    if !first.tools.iter().any(|tool| tool.name == "process_refund") {
        return Err("ResolveTools does not list process_refund".into());
    }
    let sample = timed(sizes.resolve_calls, async || {
        Ok(registry.resolve_tools(request()).await?)
    })
    .await?;
    figures.record("(d) ResolveTools warm p50", "µs", sample.percentile(0.5));
    // The worker's own resolution: the same resolver the suite runs, over the
    // bench's Redis, warm — an in-process hit, no store read, no hop.
    let resolver = adas_tools::ToolResolver::new(
        store.clone(),
        Arc::new(adas_tools::RmcpConnector::new(
            adas_tools::McpLimits::default(),
            adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).expect("a valid policy"),
        )),
        adas_tools::CacheTtls::default(),
    );
    let request = adas_tools::ToolRequest {
        mcp_server: Some(suite.demo_mcp_url.clone()),
        ..adas_tools::ToolRequest::default()
    };
    resolver.resolve(&request).await?;
    let sample = timed(sizes.resolve_calls, async || {
        Ok(resolver.resolve(&request).await?)
    })
    .await?;
    figures.record(
        "(d) in-process tool resolution p50",
        "µs",
        sample.percentile(0.5),
    );
    Ok(())
}

pub(super) async fn check_tool_call(
    suite: &Suite,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let mut gate = pb::gate_service_client::GateServiceClient::new(suite.gate.clone());
    let arguments = prost_types::Struct {
        fields: [
            (
                "order_id".to_owned(),
                prost_types::Value {
                    kind: Some(Kind::StringValue("ORD-12345".into())),
                },
            ),
            ("amount".to_owned(), number(25.0)),
        ]
        .into(),
    };
    let request = || pb::CheckToolCallRequest {
        skill: SKILL.into(),
        job: String::new(),
        tool: "process_refund".into(),
        arguments: Some(arguments.clone()),
        context: None,
    };
    gate.check_tool_call(request()).await?;
    let sample = timed(sizes.gate_calls, async || {
        Ok(gate.check_tool_call(request()).await?)
    })
    .await?;
    figures.record("(e) CheckToolCall p50", "µs", sample.percentile(0.5));
    Ok(())
}

/// Starts `count` jobs that all pause, then measures Redis memory per paused job
/// and the worker process' CPU over a quiet second while they wait.
pub(super) async fn paused_jobs(
    suite: &Suite,
    redis: &RedisServer,
    count: usize,
    figures: &mut Figures,
) -> Result<()> {
    // The worker's own idle cost (its sweeper, its queue reads), before any
    // job waits: what the paused jobs add is the difference.
    figures.record(
        "(f) worker cpu idle, none paused",
        "ms/s",
        quiet_cpu_rate(suite.worker_pid()).await,
    );
    // The bench's job pauses after its first call (the call and its output
    // are kept); one that asks before any call keeps less.
    figures.record(
        "(f) redis bytes/paused job",
        "bytes",
        pause_many(suite, redis, count, GOAL).await?,
    );
    figures.record(
        "(f) worker cpu while paused",
        "ms/s",
        quiet_cpu_rate(suite.worker_pid()).await,
    );
    figures.record(
        "(f) redis bytes/paused job at its first ask",
        "bytes",
        pause_many(suite, redis, count, FIRST_ASK_GOAL).await?,
    );
    Ok(())
}

/// Starts `count` jobs on `goal` that all pause, waits until each is
/// paused and packed, and returns what each added to Redis' `used_memory`.
async fn pause_many(suite: &Suite, redis: &RedisServer, count: usize, goal: &str) -> Result<f64> {
    let memory_before = redis_info(redis, "used_memory");
    let names = Arc::new(tokio::sync::Mutex::new(Vec::with_capacity(count)));
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let channel = suite.orchestrator.clone();
        let names = names.clone();
        let next = next.clone();
        let goal = goal.to_owned();
        tasks.push(tokio::spawn(async move {
            let mut orchestrator =
                pb::orchestrator_service_client::OrchestratorServiceClient::new(channel);
            while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < count {
                let job = start_bench_job(&mut orchestrator, &goal).await?;
                names.lock().await.push(job.name);
            }
            Ok::<(), Error>(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    // Wait on the condition: every job paused (the waiting index holds them all).
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(suite.orchestrator.clone());
    let names = names.lock().await.clone();
    let deadline = Instant::now() + Duration::from_secs(600);
    for name in &names {
        loop {
            let job = orchestrator
                .get_job(pb::GetJobRequest { name: name.clone() })
                .await?
                .into_inner();
            if job.status == pb::JobStatus::Paused as i32 {
                break;
            }
            if job.status != pb::JobStatus::Queued as i32
                && job.status != pb::JobStatus::Running as i32
            {
                return Err(format!("{name} ended instead of pausing").into());
            }
            if Instant::now() > deadline {
                return Err(format!("{name} never paused").into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    // …and every one packed by the suite's park sweep (the suite packs a job
    // that waited 1 s here: `--park-after-ms`).
    let unparked = adas_state::KeyLayout::new("default")?.unparked(adas_state::partition_of(
        adas_e2e::SKILL.trim_start_matches("skills/"),
    ));
    loop {
        let reply = redis.raw_command(&format!("ZCARD {unparked}"));
        if reply.trim().trim_start_matches(':') == "0" {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("paused jobs were never packed: {reply}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok((redis_info(redis, "used_memory") - memory_before) / count as f64)
}

/// Fills the bench skill with `count` stored jobs (one in four paused), then
/// times ListJobs pages of 50 PAUSED jobs and counts the round trips each costs.
pub(super) async fn list_pages(
    suite: &Suite,
    store: &Arc<RedisStore>,
    count: usize,
    figures: &mut Figures,
) -> Result<()> {
    let slag = adas_e2e::SKILL.trim_start_matches("skills/");
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..64 {
        let (store, next, slag) = (store.clone(), next.clone(), slag.to_owned());
        tasks.push(tokio::spawn(async move {
            loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if index >= count {
                    return Ok::<(), Error>(());
                }
                let status = if index % 4 == 3 {
                    "paused"
                } else {
                    "completed"
                };
                let job_id = format!("list{index:07}");
                let record = json!({
                    "job_id": job_id, "slag": slag, "goal": "listed", "status": status,
                    "waiting": null, "context": {}, "resources": {}, "plan": null,
                    "intent": null, "iteration": 0, "iteration_budget": 1, "calls": [],
                    "result": null, "error": null, "audit": [], "request_id": "",
                    "created_at": "2026-01-01T00:00:00.000Z",
                    "updated_at": "2026-01-01T00:00:00.000Z", "ended_at": null
                });
                let data = serde_json::to_vec(&record)?;
                let job = NewJob {
                    data: &data,
                    created_ms: index as u64,
                    status,
                    event: None,
                    enqueue: false,
                };
                store.create_job(&slag, &job_id, job).await?;
                if status == "paused" {
                    // A paused job waits: it is listed from the waiting index.
                    let wait = JobWrite {
                        policy: None,
                        expected: 1,
                        data: None,
                        status,
                        waiting: WaitingChange::Set {
                            since_ms: index as u64,
                        },
                        events: &[],
                        enqueue: None,
                    };
                    store.write_job(&slag, &job_id, wait).await?;
                }
            }
        }));
    }
    for task in tasks {
        task.await??;
    }
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(suite.orchestrator.clone());
    let request = || pb::ListJobsRequest {
        parent: adas_e2e::SKILL.into(),
        status: pb::JobStatus::Paused as i32,
        page_size: 50,
        ..Default::default()
    };
    let calls = 200;
    let trips_before: u64 = suite
        .counters(ROUND_TRIPS)
        .await
        .iter()
        .map(|(_, v)| v)
        .sum();
    let sample = timed(calls, async || {
        let page = orchestrator.list_jobs(request()).await?.into_inner();
        // (f) left paused jobs too: at least a quarter of those stored here.
        if page.jobs.len() < 50.min(count / 4) {
            return Err(format!("a page of only {} jobs", page.jobs.len()).into());
        }
        Ok(())
    })
    .await?;
    let trips_after: u64 = suite
        .counters(ROUND_TRIPS)
        .await
        .iter()
        .map(|(_, v)| v)
        .sum();
    figures.record("(g) jobs stored", "jobs", count as f64);
    figures.record(
        "(g) ListJobs PAUSED page of 50 p50",
        "µs",
        sample.percentile(0.5),
    );
    figures.record(
        "(g) redis trips/ListJobs page",
        "trips",
        (trips_after - trips_before) as f64 / calls as f64,
    );
    Ok(())
}
