//! Scale-out (h): orchestrator and dal-agent replicas on one Redis and on a
//! three-primary Redis Cluster.

use super::*;

/// The store a scale-out run uses: one Redis, or a three-primary cluster.
pub(super) enum ScaleStore<'a> {
    Single(&'a RedisServer),
    Cluster(&'a RedisCluster),
}

impl ScaleStore<'_> {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Self::Single(_) => "one redis",
            Self::Cluster(_) => "cluster of 3",
        }
    }

    pub(super) fn url(&self) -> String {
        match self {
            Self::Single(redis) => redis.url(),
            Self::Cluster(cluster) => cluster.url(),
        }
    }

    pub(super) fn nodes(&self) -> Vec<&RedisServer> {
        match self {
            Self::Single(redis) => vec![redis],
            Self::Cluster(cluster) => cluster.nodes().iter().collect(),
        }
    }

    /// Every node's CPU seconds, summed.
    pub(super) fn cpu(&self) -> f64 {
        self.nodes()
            .into_iter()
            .map(|node| cpu_seconds(redis_pid(node)))
            .sum()
    }

    pub(super) fn flush(&self) {
        for node in self.nodes() {
            node.raw_command("FLUSHALL");
        }
    }
}

/// (h) Replicas side by side on one store: registry, intent and gate once, and
/// `replicas` orchestrator + dal-agent pairs, each orchestrator stepping its
/// jobs in-process and its clients answering through its own dal-agent.
/// Returns the processes (kept alive) and each pair's channels.
pub(super) async fn start_replicas(
    url: &str,
    replicas: usize,
    root: &Path,
) -> Result<(Vec<SpawnedService>, Vec<(Channel, Channel)>)> {
    let templates = root.join("templates").display().to_string();
    let env = [("ADAS_LOG", "error")];
    let demo = SpawnedService::spawn(&binary("adas-demo-mcp"), &[], &env);
    let demo_url = format!("http://{}/mcp", demo.addr());
    let mut processes = vec![demo];
    let spawn = |name: &str, extra: &[String]| {
        let memory = scratch_dir(&format!("scale-{name}")).display().to_string();
        let mut args = vec![
            "--redis-url".to_owned(),
            url.to_owned(),
            "--memory-root".into(),
            memory,
            "--templates-dir".into(),
            templates.clone(),
            "--demo-mcp-url".into(),
            demo_url.clone(),
        ];
        args.extend_from_slice(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        SpawnedService::spawn(&binary(name), &args, &env)
    };
    let mut peers = Vec::new();
    for (name, flag) in [
        ("adas-skill-registry", "--skill-registry-addr"),
        ("adas-intent", "--intent-addr"),
        ("adas-gate", "--gate-addr"),
    ] {
        let service = spawn(name, &[]);
        peers.extend([flag.to_owned(), service.endpoint()]);
        processes.push(service);
    }
    let mut pairs = Vec::new();
    for _ in 0..replicas {
        let dal = spawn("adas-dal-agent", &[]);
        let mut extra = peers.clone();
        extra.extend(["--dal-agent-addr".to_owned(), dal.endpoint()]);
        let orchestrator = spawn("adas-orchestrator", &extra);
        pairs.push((channel(&orchestrator).await?, channel(&dal).await?));
        processes.extend([dal, orchestrator]);
    }
    Ok((processes, pairs))
}

/// Jobs/s with 1, 2 and 4 replica pairs on `store`, with the store's CPU per
/// job: one core divided by it is the most jobs/s one shard can take.
pub(super) async fn scale_out(
    store: &ScaleStore<'_>,
    quick: bool,
    root: &Path,
    figures: &mut Figures,
) -> Result<()> {
    let (levels, jobs, concurrency): (&[usize], usize, usize) = if quick {
        (&[1, 2], 16, 8)
    } else {
        (&[1, 2, 4], 256, 32)
    };
    for &replicas in levels {
        store.flush();
        let (processes, pairs) = start_replicas(&store.url(), replicas, root).await?;
        eprintln!(
            "adas-bench: scale-out: {}, {replicas} replicas up",
            store.name()
        );
        // Warm-up through every pair: skills read, tool caches filled.
        for (orchestrator, dal) in &pairs {
            one_job_via(orchestrator.clone(), dal.clone(), Duration::ZERO).await?;
        }
        let pids: Vec<u32> = processes[1..].iter().map(SpawnedService::pid).collect();
        let (suite_before, store_before) = (cpu_of(&pids), store.cpu());
        let started = Instant::now();
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let pairs = Arc::new(pairs);
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let (next, pairs) = (next.clone(), pairs.clone());
            tasks.push(tokio::spawn(async move {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= jobs {
                        return Ok::<_, Error>(());
                    }
                    let (orchestrator, dal) = &pairs[n % pairs.len()];
                    one_job_via(orchestrator.clone(), dal.clone(), Duration::ZERO).await?;
                }
            }));
        }
        for task in tasks {
            task.await??;
        }
        let wall = started.elapsed().as_secs_f64();
        let store_cpu = (store.cpu() - store_before) * 1e6 / jobs as f64;
        let name = store.name();
        figures.record(
            &format!("(h) {name}: jobs/s, {replicas} replicas"),
            "jobs/s",
            jobs as f64 / wall,
        );
        figures.record(
            &format!("(h) {name}: redis cpu/job (all shards), {replicas} replicas"),
            "µs",
            store_cpu,
        );
        figures.record(
            &format!("(h) {name}: suite cpu/job, {replicas} replicas"),
            "µs",
            (cpu_of(&pids) - suite_before) * 1e6 / jobs as f64,
        );
        // Every shard a core of its own: the most jobs/s the store takes.
        figures.record(
            &format!("(h) {name}: redis ceiling at 1 core/shard, {replicas} replicas"),
            "jobs/s",
            store.nodes().len() as f64 * 1e6 / store_cpu.max(1.0),
        );
        drop(processes);
    }
    Ok(())
}

pub(super) fn report_scale_out(figures: &Figures) -> Json {
    println!("\n== scale-out (replicas of orchestrator + dal-agent on one store)");
    let mut json_figures = serde_json::Map::new();
    for name in &figures.order {
        let (unit, values) = &figures.values[name];
        let (_, median, _) = stats(values);
        println!("{name:<52} {median:>12.1}  {unit}");
        json_figures.insert(name.clone(), json!({"unit": unit, "median": median}));
    }
    println!(
        "the store's ceiling: one core per shard over the Redis CPU per job; a cluster adds shards"
    );
    json!({ "figures": json_figures })
}
